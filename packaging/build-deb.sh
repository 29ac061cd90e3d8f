#!/usr/bin/env bash
# build-deb.sh BINARY VERSION ARCH OUTDIR: the kiosk's Debian package,
# OUTDIR/robohornets-kiosk_<version>_<arch>.deb, around BINARY (a desktop
# build of robohornets for ARCH, a Debian architecture like amd64). Prints the
# package's path.
#
# VERSION is the release's (semver). A pre-release must sort before its
# release, which in Debian takes a ~: 1.3.0-rc.1 becomes 1.3.0~rc.1.
# SOURCE_DATE_EPOCH (required) is every file's time, so the same inputs give
# the same bytes. DEB_MAINTAINER overrides the Maintainer field.
#
# The Depends of control.in are what dpkg-shlibdeps derives from the
# libraries the binary links (readelf -d: NEEDED) on Debian 12; the release
# test checks that they still cover every one of them.
set -euo pipefail

if [[ $# -ne 4 ]]; then
  echo "usage: $0 BINARY VERSION ARCH OUTDIR" >&2
  exit 2
fi
binary=$1 version=$2 arch=$3 outdir=$4
: "${SOURCE_DATE_EPOCH:?build-deb.sh: set SOURCE_DATE_EPOCH to the release commit time}"
maintainer=${DEB_MAINTAINER:-RoboHornets FRC Team 1209 <robohornets@example.org>}
here=$(cd "$(dirname "$0")" && pwd)
icons=$here/../build

deb_version=${version//-/\~}
dpkg --validate-version "$deb_version" ||
  { echo "build-deb.sh: $version makes no Debian version" >&2; exit 2; }

umask 022
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 0755 "$root"
doc=$root/usr/share/doc/robohornets-kiosk
install -D -m 0755 "$binary" "$root/usr/bin/robohornets"
install -D -m 0644 "$here/robohornets.desktop" "$root/usr/share/applications/robohornets.desktop"
install -D -m 0644 "$icons/appicon.svg" "$root/usr/share/icons/hicolor/scalable/apps/robohornets.svg"
install -D -m 0644 "$icons/appicon.png" "$root/usr/share/icons/hicolor/512x512/apps/robohornets.png"
install -D -m 0644 "$here/robohornets-kiosk.service" "$root/usr/lib/systemd/user/robohornets-kiosk.service"
install -D -m 0644 "$here/copyright" "$doc/copyright"
install -D -m 0644 "$here/kiosk.env.example" "$doc/kiosk.env.example"
install -D -m 0644 "$here/robohornets-autostart.desktop" "$doc/examples/robohornets-autostart.desktop"

# Installed-Size as dpkg-gencontrol counts it: KiB per file, rounded up, and
# one for each directory.
installed_size=$(cd "$root" && find usr -printf '%y %s\n' |
  awk '$1 == "f" { n += int(($2 + 1023) / 1024); next } { n += 1 } END { print n }')

install -d -m 0755 "$root/DEBIAN"
sed -e "s|@VERSION@|$deb_version|" -e "s|@ARCH@|$arch|" \
  -e "s|@MAINTAINER@|$maintainer|" -e "s|@INSTALLED_SIZE@|$installed_size|" \
  "$here/control.in" > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

deb=$outdir/robohornets-kiosk_${deb_version}_$arch.deb
mkdir -p "$outdir"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
