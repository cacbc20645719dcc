# shellcheck shell=bash
# The checks of ipu-bench's JSON that the host tests (run.sh, on the model
# device) and the M2000 VM test (links_vm.sh, on the cards) share; sourced
# after tests/library/ktap.sh. PY: a python3 with json.
PY=${PY:-/usr/bin/python3}
# GB/s per link and direction of every model (link_mb_s in ipu_models.h;
# docs/cost-model.md: 32 GB/s)
LINK_GBS=32.0

# check NAME FILE PYTHON: PYTHON (with j = FILE's JSON) raises on failure
check() {
	local name=$1 file=$2 code=$3 why
	if why=$("$PY" -c "import json, sys
j = json.load(open(sys.argv[1]))
$code" "$file" 2>&1); then
		add ok "$name"
	else
		add fail "$name" "$(echo "$why" | tail -n 1 | head -c 240)"
	fi
}

# links_json NAME FILE SIZE PAIRS [ID IPUS]: ipu-bench --links --json in
# FILE lists exactly PAIRS ("a-b:links ...", or "a-b:links@id/ipus ..."
# when each pair names its device), each moving 2 x SIZE bytes a run on
# device ID of IPUS IPUs, modelled within the links' limit, its GB/s the
# bytes over its times
links_json() {
	check "$1" "$2" "
dev = len('${5:-}') > 0
pairs = ' '.join(f\"{p['ipu_a']}-{p['ipu_b']}:{p['links']}\" +
                 ('' if dev else f\"@{p['device_id']}/{p['device_ipus']}\") for p in j['pairs'])
assert pairs == '$4', pairs
assert j['bytes_per_direction'] == $3, j['bytes_per_direction']
for p in j['pairs']:
    assert p['bytes'] == 2 * $3, p
    assert not dev or (p['device_id'], p['device_ipus']) == (${5:-0}, ${6:-0}), p
    assert p['cycles'] > 0 and p['cycles_exchange'] > 0 and p['runs'] >= 1, p
    assert p['link_limit_gbps'] == 2 * p['links'] * $LINK_GBS, p
    assert 0 < p['modelled_gbps'] <= p['link_limit_gbps'] * 1.001, p
    assert p['host_us'] > 0, p
    for t, g in (('host_us', 'host_gbps'), ('modelled_us', 'modelled_gbps')):
        assert abs(p[g] - p['bytes'] / (p[t] * 1e3)) <= 0.0006 + 0.002 * p[g], (t, p)"
}

# host_sync_json NAME FILE SYNCS IPUS CYCLES: ipu-bench --host-sync --json
# in FILE: SYNCS syncs on IPUS IPUs, each modelled CYCLES (an external sync
# of IPUS IPUs, docs/cost-model.md), the total the sum of the syncs
host_sync_json() {
	check "$1" "$2" "
assert (j['syncs'], j['ipus']) == ($3, $4), j
assert j['cycles_sync'] == $5 and j['cycles_per_sync'] == $5, j
assert j['time_to_sync_us'] > 0 and j['min_us'] <= j['median_us'] <= j['max_us'], j
assert abs(j['per_sync_us'] * $3 - j['time_to_sync_us']) <= 0.001 * $3 + 1e-6 * j['time_to_sync_us'], j"
}
