#!/usr/bin/env bash
# Double-dummy solver candidates side by side (issue 40 item 3): DDS's own test deals
# (hands/list100.txt, list1000.txt of the public DDS repository, dds-bridge/dds) or any PBN
# file, every deal's 20-trick table, by
#   dds          benches/dd_reference.py: DDS 2.9's CalcAllTables through PyPI's endplay (on one
#                core with DDS_THREADS=1: DDS's SetMaxThreads(1))
#   dist         `dealdex solve --no-db`, the dist profile (release artifacts, the wheel: fat
#                LTO, one codegen unit), built with `--features dds`: pons-dds, the default solver
#   release      the same, README's release profile (thin LTO, 16 codegen units but pons-dds's
#                one): what `cargo run --release` builds
#   dds3         the same binary with `--solver dds`: DDS 3.1 itself (C++, dds-bridge-sys)
#   nolto        pons-dds without LTO, in 4 codegen units, built into target/nolto; only with
#                NOLTO=1
#   native       release and RUSTFLAGS="-C target-cpu=x86-64-v3" (AVX2, BMI2; no portable
#                fallback: a measurement only), built into target/native; only with NATIVE=1
#   pgo          release, profile-guided: benches/pgo_build.sh (trained on 40 random deals of
#                another seed and a short generate; needs `rustup component add llvm-tools`),
#                target/pgo/dist/dealdex; only with PGO=1
# each on one core (taskset -c 0) and on both, whole commands under /usr/bin/time, ROUNDS rounds
# with the order turned each round; then dealdex's tables are compared cell by cell with DDS
# 2.9's (the list file's TABLE lines, or those endplay gives for a PBN file).
#
# Run on an idle machine from the repository's root:
#     DDS_LIST=/path/to/dds/hands/list100.txt benches/dd_candidates.sh
#     DEALS=random.pbn benches/dd_candidates.sh
# Settings (environment): DDS_LIST or DEALS (one is required), ROUNDS (default 3), ENDPLAY_VENV
# (default /tmp/ep, made with `pip install endplay` if missing), NOLTO=1, NATIVE=1, PGO=1, ONE_CORE=1
# (the one-core runs only), OUT (keep the files in this folder).
set -euo pipefail
cd "$(dirname "$0")/.."
list="${DDS_LIST:-}"
[ -n "$list" ] || [ -n "${DEALS:-}" ] || { echo "give DDS_LIST (a DDS hands/listN.txt) or DEALS (a PBN file)" >&2; exit 2; }
rounds="${ROUNDS:-3}"
ep="${ENDPLAY_VENV:-/tmp/ep}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
[ -x "$ep/bin/python" ] || { python3 -m venv "$ep" && "$ep/bin/pip" install -q endplay; }

# The list's deals as PBN, and DDS's tables (TABLE: strains S H D C NT, each N E S W); a PBN
# file's tables are written by DDS's one-core run below.
if [ -n "$list" ]; then
python3 - "$list" "$out" <<'EOF'
import json, re, sys
lines = open(sys.argv[1]).read().split("\n")
deals = [re.search(r'"(.*)"', l).group(1) for l in lines if l.startswith("PBN ")]
tables = [l.split()[1:] for l in lines if l.startswith("TABLE ")]
assert len(deals) == len(tables), (len(deals), len(tables))
with open(f"{sys.argv[2]}/deals.pbn", "w") as f:
    for k, d in enumerate(deals, 1):
        f.write(f'[Board "{k}"]\n[Deal "{d}"]\n\n')
json.dump(tables, open(f"{sys.argv[2]}/dds-tables.json", "w"))
print(f"{len(deals)} deals from {sys.argv[1]}")
EOF
else
    cp "$DEALS" "$out/deals.pbn"
fi

cargo build --profile dist -q --features dds
cargo build --release -q --features dds
builds=(dist=target/dist/dealdex release=target/release/dealdex)
if [ "${NOLTO:-0}" = 1 ]; then
    CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=4 \
        cargo build --release -q --target-dir target/nolto
    builds+=(nolto=target/nolto/release/dealdex)
fi
if [ "${NATIVE:-0}" = 1 ]; then
    RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --release -q --target-dir target/native
    builds+=(native=target/native/release/dealdex)
fi

if [ "${PGO:-0}" = 1 ]; then
    benches/pgo_build.sh
    builds+=(pgo=target/pgo/dist/dealdex)
fi

source benches/rounds.sh
tables=""
[ -n "$list" ] || tables="DDS_TABLES=$out/dds-tables.json"
add dds-1core "env DDS_THREADS=1 $tables taskset -c 0 $ep/bin/python benches/dd_reference.py $out/deals.pbn"
[ "${ONE_CORE:-0}" = 1 ] || add dds-2cores "$ep/bin/python benches/dd_reference.py $out/deals.pbn"
builds+=("dds3=target/dist/dealdex --solver dds")
for b in "${builds[@]}"; do
    name=${b%%=*} bin=${b#*=}
    add "$name-1core" "taskset -c 0 $bin solve $out/deals.pbn --no-db -q --to json"
    [ "${ONE_CORE:-0}" = 1 ] || add "$name-2cores" "$bin solve $out/deals.pbn --no-db -q --to json"
done
run_rounds "$out" "$rounds"

python3 - "$out" "${names[@]}" <<'EOF'
import json, statistics, sys
out, names = sys.argv[1], sys.argv[2:]
rows = [l.split() for l in open(f"{out}/times")]
med = {n: [statistics.median(float(r[c]) for r in rows if r[0] == n) for c in (1, 2, 3)]
       for n in names}
print(f"{'contestant':<16} {'wall':>8} {'user':>8} {'peak MB':>8}  vs DDS on its cores")
for n in names:
    w, u, p = med[n]
    ref = med["dds-1core" if n.endswith("1core") or "dds-2cores" not in med else "dds-2cores"][0]
    print(f"{n:<16} {w:8.2f} {u:8.2f} {p / 1024:8.0f}  {ref / w:5.2f}x  "
          + ", ".join(r[1] for r in rows if r[0] == n))
dds = json.load(open(f"{out}/dds-tables.json"))
strains, seats = ["S", "H", "D", "C", "NT"], ["N", "E", "S", "W"]
for n in names:
    if n.startswith("dds-"):
        continue
    got = [json.loads(l) for l in open(f"{out}/{n}.out") if l.startswith("{")]
    agree = sum(all(int(t[4 * s + h]) == g["tricks"][seats[h]][strains[s]]
                    for s in range(5) for h in range(4)) for t, g in zip(dds, got))
    print(f"{n}: {agree} of {len(dds)} tables equal DDS's cell by cell")
EOF
