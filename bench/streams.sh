#!/usr/bin/env bash
# streams.sh SERVER_BIN: STREAMS_N (default 10000) live news viewers
# on one `serve` process, first over the Firestore emulator, then over the
# local store, measured by sseload. Prints a markdown section for
# docs/BENCHMARKS.md on stdout (progress on stderr) and exits 1 when a run
# failed or missed a goal. Run from the repository root (make bench-streams).
set -euo pipefail

bin=${1:?usage: streams.sh SERVER_BIN}
n=${STREAMS_N:-10000}
writes=${STREAMS_WRITES:-5}
jar=${FIRESTORE_EMULATOR_JAR:-/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar}
project=bench-streams

work=$(mktemp -d)
groups=()
cleanup() {
	# Each server runs in its own process group (setsid): end the groups.
	for g in "${groups[@]}"; do kill -TERM -- "-$g" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/sseload" ./cmd/sseload

# free_port picks a port below the ephemeral range, which sseload's
# thousands of connections crowd, that no socket uses.
free_port() {
	local p lo
	lo=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range)
	while :; do
		p=$((10000 + RANDOM % (lo - 10000)))
		if ! ss -Htan "sport = :$p" | grep -q .; then echo "$p"; return; fi
	done
}

# wait_until SECONDS WHAT COMMAND...: retries COMMAND every 0.1 s.
wait_until() {
	local secs=$1 what=$2
	shift 2
	for _ in $(seq $((secs * 10))); do
		if "$@" >/dev/null 2>&1; then return 0; fi
		sleep 0.1
	done
	echo "bench-streams: no $what within ${secs}s" >&2
	return 1
}

# start_serve LOG ARGS...: starts serve on a free port; sets serve_pid and serve_url.
start_serve() {
	local log=$1 port
	shift
	port=$(free_port)
	serve_url=http://127.0.0.1:$port
	# The caps must not refuse the load: sseload's viewers come from a few
	# loopback addresses.
	setsid "$bin" serve --listen "127.0.0.1:$port" --site-url "$serve_url" --event off --log-level warn \
		--max-streams "$((n + 1000))" --max-streams-per-client 0 "$@" >"$log" 2>&1 &
	serve_pid=$!
	groups+=("$serve_pid")
	if ! wait_until 60 "live news on $serve_url" bash -c "curl -fsS '$serve_url/healthz' | grep -q '\"status\":\"live\"'"; then
		cat "$log" >&2
		return 1
	fi
}

stop_group() {
	kill -TERM -- "-$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

status=0
rows=()

# measure LABEL SSELOAD-STORE-ARGS...: one sseload run against serve_pid.
measure() {
	local label=$1 row
	shift
	echo "bench-streams: $label: $n viewers on $serve_url" >&2
	if row=$("$work/sseload" -url "$serve_url" -pid "$serve_pid" -n "$n" -writes "$writes" -markdown -label "$label" ${ROBOHORNETS_BENCH_OUT:+-goals "$work/goals.jsonl"} "$@" 2>"$work/sseload.log"); then
		rows+=("$row")
	else
		status=1
		if [ -n "$row" ]; then
			rows+=("$row")
		else
			rows+=("| $label | $n | failed: $(tail -n 1 "$work/sseload.log" | tr '|' '/') | | |")
		fi
	fi
	cat "$work/sseload.log" >&2
}

# 1. Firestore: the production store, as Google's emulator.
emulator_port=$(free_port)
setsid java -cp "$jar" com.google.cloud.datastore.emulator.firestore.CloudFirestore start \
	--host=127.0.0.1 --port="$emulator_port" >"$work/emulator.log" 2>&1 &
emulator_pid=$!
groups+=("$emulator_pid")
if ! wait_until 90 "Firestore emulator" grep -q "Dev App Server is now running" "$work/emulator.log"; then
	cat "$work/emulator.log" >&2
	exit 1
fi
export FIRESTORE_EMULATOR_HOST=127.0.0.1:$emulator_port
# The same sample articles as the local store, so both lists weigh the same.
"$bin" news --data "$work/seed" list >/dev/null
"$bin" news --data "$work/seed" --store firestore --project "$project" import "$work/seed/news" >/dev/null
start_serve "$work/serve-firestore.log" --data "$work/firestore" --store firestore --project "$project"
measure "Firestore emulator" -store firestore -project "$project"
stop_group "$serve_pid"
stop_group "$emulator_pid"
unset FIRESTORE_EMULATOR_HOST

# 2. The local store: markdown files, followed with fsnotify.
start_serve "$work/serve-local.log" --data "$work/local"
measure "local store" -store local -data "$work/local"
stop_group "$serve_pid"

# The section, printed and (with ROBOHORNETS_BENCH_OUT set) written as the
# part streams.json by goparts assemble.
{
	cat <<EOF
It starts \`serve\` over Google's Firestore emulator (seeded with the sample articles), then over
the local store, and runs \`sseload\`, which opens $n concurrent \`/api/news/stream\` connections
on loopback, reads serve's VmRSS before and once every viewer has its first event, then writes an
article ($writes times, one after the other: a document to the emulator with the Go client, or a
markdown file) and times, for each viewer, the wait from just before the write until the news
list with it has arrived. Memory per viewer = (the larger RSS with the viewers, idle or after the
writes − RSS before) / viewers, in KB of 1000 bytes. Delivery = medians over the writes of each
write's p50, p99 and max. Goals: ≤ 20 KB per viewer; p99 ≤ 1 s from a write to the Firestore
emulator until every viewer has it.

| store | viewers | serve's memory | write → viewer p50 / p99 / max | goals |
|---|---|---|---|---|
EOF
	printf '%s\n' "${rows[@]}"
} | go run ./bench/goparts assemble -name streams -section "Live fan-out: $n viewers on one serve process" \
	-command "STREAMS_N=$n STREAMS_WRITES=$writes bench/streams.sh build/bin/robohornets-server" \
	${ROBOHORNETS_BENCH_OUT:+-goals "$work/goals.jsonl"} || status=1
exit $status
