#!/usr/bin/env bash
# build-image.sh BINARY NAME: builds the container image of the website
# (`make image` runs it) with buildah, from scratch: nothing is pulled, so it
# works with no registry in reach. The image holds
#
#   /robohornets                   BINARY, the static serve-only build (CGO off)
#   /etc/ssl/certs/ca-certificates.crt   this machine's CA certificates (Firestore,
#                                  Nexus and TBA are reached over TLS)
#   /usr/share/zoneinfo/           this machine's time-zone data (events' local times)
#   /etc/passwd, /etc/group        root and the user robohornets (65532), so that
#                                  tools show a name
#   /home/robohornets, /data       the user's home and data directory, its own
#   /tmp                           sticky and writable by all, as usual
#
# and runs `/robohornets serve` as robohornets, on $PORT (8080 unless the
# platform sets it). The version, commit and build date in its labels, and
# the tags NAME:VERSION and NAME:latest, are read from BINARY itself
# (`BINARY version`), so they always tell what is inside; the build date is
# also the image's creation time and its files' times, so that building the
# same binary again gives the same layer, byte for byte (the image's
# configuration still differs: Docker's format records the id and host name
# of the container it was built in).
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 BINARY NAME" >&2
	exit 2
fi
bin=$1 name=$2
source_url=https://github.com/robohornets/robohornets

# "robohornets 1.2.3 (commit 4f1c…, built 2026-11-25T12:00:00Z, go1.26.8, linux/amd64)"
line=$("$bin" version)
re='^robohornets ([^ ]+) \(commit ([^,]+), built ([^,]+), [^,]+, linux/([a-z0-9]+)\)$'
if ! [[ $line =~ $re ]]; then
	echo "$0: cannot read the version of $bin: $line" >&2
	exit 1
fi
version=${BASH_REMATCH[1]} commit=${BASH_REMATCH[2]} built=${BASH_REMATCH[3]} arch=${BASH_REMATCH[4]}
if [ "$commit" = unknown ] || [ "$built" = unknown ]; then
	echo "$0: $bin was built without its version (build it with make)" >&2
	exit 1
fi
epoch=$(date -u -d "$built" +%s)
if [ "$arch" != amd64 ]; then
	echo "$0: warning: a linux/$arch image; Cloud Run runs linux/amd64 ones (docs/DEPLOY.md)" >&2
fi

stage=$(mktemp -d)
ctr=
cleanup() {
	if [ -n "$ctr" ]; then buildah rm "$ctr" >/dev/null || true; fi
	rm -rf "$stage"
}
trap cleanup EXIT

# The files, laid out as in the image: root's, then the user's.
mkdir -p "$stage/root/etc/ssl/certs" "$stage/root/usr/share" "$stage/user/home/robohornets" "$stage/user/data" "$stage/tmp/tmp"
install -m 755 "$bin" "$stage/root/robohornets"
install -m 644 /etc/ssl/certs/ca-certificates.crt "$stage/root/etc/ssl/certs/ca-certificates.crt"
cp -a /usr/share/zoneinfo "$stage/root/usr/share/zoneinfo"
printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' \
	'robohornets:x:65532:65532:RoboHornets website:/home/robohornets:/sbin/nologin' >"$stage/root/etc/passwd"
printf '%s\n' 'root:x:0:' 'robohornets:x:65532:' >"$stage/root/etc/group"
chmod 644 "$stage/root/etc/passwd" "$stage/root/etc/group"
chmod 700 "$stage/user/home/robohornets" "$stage/user/data"
chmod 1777 "$stage/tmp/tmp"

# Docker's image format, not OCI's: OCI's has no HEALTHCHECK, and with
# this one `podman run` and `docker run` watch the container's readiness
# with no flags (podman healthcheck run, docker ps). Cloud Run and
# Artifact Registry take either format; Cloud Run ignores HEALTHCHECK and
# uses the startup and liveness probes of the service (docs/DEPLOY.md).
export BUILDAH_FORMAT=docker
ctr=$(buildah from --name "robohornets-image-$$" scratch)
buildah copy --quiet --chown 0:0 "$ctr" "$stage/root/" /
buildah copy --quiet --chown 65532:65532 "$ctr" "$stage/user/" /
buildah copy --quiet --chown 0:0 "$ctr" "$stage/tmp/" /
# The healthcheck asks /readyz (robohornets healthcheck: exit 0 or 1, no
# shell or curl needed); the start period covers a cold start on Firestore.
buildah config \
	--os linux --arch "$arch" \
	--user 65532:65532 \
	--workingdir /home/robohornets \
	--env HOME=/home/robohornets \
	--env XDG_DATA_HOME=/data \
	--env PORT=8080 \
	--port 8080/tcp \
	--entrypoint '["/robohornets", "serve"]' \
	--stop-signal SIGTERM \
	--healthcheck 'CMD /robohornets healthcheck' \
	--healthcheck-interval 30s --healthcheck-timeout 6s --healthcheck-start-period 20s --healthcheck-retries 3 \
	--label org.opencontainers.image.title=robohornets \
	--label "org.opencontainers.image.description=The website of FRC Team 1209, the RoboHornets: robohornets serve" \
	--label "org.opencontainers.image.version=$version" \
	--label "org.opencontainers.image.revision=$commit" \
	--label "org.opencontainers.image.created=$built" \
	--label "org.opencontainers.image.source=$source_url" \
	--created-by "packaging/build-image.sh" \
	"$ctr"
# The image this build replaces under the same tag, if any: removed below
# once nothing names it, rather than left behind untagged.
old=$(buildah images --no-trunc --format '{{.ID}}' --filter "reference=localhost/$name:$version" 2>/dev/null | head -n 1 || true)
new=$(buildah commit --quiet --rm --identity-label=false --timestamp "$epoch" "$ctr" "localhost/$name:$version")
ctr=
buildah tag "localhost/$name:$version" "localhost/$name:latest"
new=sha256:${new#sha256:}
if [ -n "$old" ] && [ "$old" != "$new" ] &&
	! buildah images --no-trunc --format '{{.ID}} {{.Name}}' | awk -v id="$old" '$1 == id && $2 != "<none>" { found = 1 } END { exit !found }'; then
	buildah rmi "$old" >/dev/null || true
fi
echo "built localhost/$name:$version (and :latest): $line"
