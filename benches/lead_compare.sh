#!/usr/bin/env bash
# The opening-lead benchmark of issue 39: all 13 leads of West (AQ4.J.KJ6543.632) against 3NT
# by South on the same deals (1,000 by default, from `dealdex generate --seed 4242…42
# --predeal 'W:AQ4.J.KJ6543.632'`), by four contestants:
#   endplay      benches/lead_reference.py: a loop of DDS's SolveBoard (PyPI's endplay,
#                solutions = 3), one core (taskset -c 0): the yardstick
#   redeal       benches/lead_redeal.py: redeal's OpeningLeadSim over the same deals, one core
#                (taskset -c 0) and unpinned (redeal's default; its DDS is built without threads)
#   dealdex      `dealdex lead --file DEALS --contract 3NT --declarer S`, one core (taskset -c 0:
#                its solver threads follow the cores it may use) and both cores
# Targets (issue 39): dealdex on one core at least as fast as the endplay loop (>= 1.0x), on two
# cores >= 1.9x. Whole commands are timed with /usr/bin/time, ROUNDS rounds, the contestants'
# order turned by one each round; the table gives medians and endplay's median wall / each one's.
# Then the per-card results of redeal and dealdex are compared (benches/lead_agree.py).
#
# Run it on an idle machine from the repository's root (about 4 minutes a round for 1,000 deals):
#     REDEAL_SRC=/path/to/redeal benches/lead_compare.sh          # 1,000 deals, 3 rounds
#     LEAD_DEALS=30 ROUNDS=1 benches/lead_compare.sh              # a smoke test
# Settings (environment; a first argument is taken as LEAD_DEALS, as before):
#   LEAD_DEALS    deals (default 1000)
#   ROUNDS        timed rounds (default 3); 0: only set up, write the deals and print the
#                 commands (with OUT, to time them with another harness)
#   DEALDEX       the binary to time (default: `cargo build --release`, target/release/dealdex)
#   ENDPLAY_VENV  a venv with endplay (default /tmp/ep; made with `pip install endplay` if missing)
#   REDEAL_VENV   a venv with redeal (default /tmp/redeal-venv). redeal is not on PyPI: if the
#                 venv is missing, REDEAL_SRC must name a copy of its public source (Antony Lee's
#                 anntzer/redeal) with its DDS submodule checked out in dds/ (`git clone
#                 --recurse-submodules`); `pip install $REDEAL_SRC` then builds redeal's bundled
#                 DDS (make, g++) into the package, as redeal's setup.py does
#   REDEAL=skip   leave redeal out
#   OUT           keep the deal file, the outputs and the times in this folder (default: a
#                 temporary folder, removed at the end)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${LEAD_DEALS:-${1:-1000}}"
rounds="${ROUNDS:-3}"
ep="${ENDPLAY_VENV:-/tmp/ep}"
rd="${REDEAL_VENV:-/tmp/redeal-venv}"

if [ -n "${DEALDEX:-}" ]; then
    bin="$DEALDEX"
else
    cargo build --release -q
    bin=target/release/dealdex
fi

if ! "$ep/bin/python" -c 'import endplay' 2>/dev/null; then
    echo "setting up endplay in $ep"
    python3 -m venv "$ep"
    "$ep/bin/pip" install -q endplay
fi

redeal_ready() {
    "$rd/bin/python" -c 'import os, redeal
assert os.path.exists(os.path.join(os.path.dirname(redeal.__file__), "libdds.so"))' 2>/dev/null
}
if [ "${REDEAL:-}" != skip ] && ! redeal_ready; then
    if [ -z "${REDEAL_SRC:-}" ] || [ ! -f "$REDEAL_SRC/setup.py" ] \
        || [ ! -d "$REDEAL_SRC/dds/src" ]; then
        echo "redeal is not installed in $rd: set REDEAL_SRC to its source with dds/ checked out" \
            "(see the top of $0), or REDEAL=skip" >&2
        exit 1
    fi
    echo "setting up redeal in $rd (building its DDS)"
    python3 -m venv "$rd"
    "$rd/bin/pip" install -q "$REDEAL_SRC"
    redeal_ready
fi

if [ -n "${OUT:-}" ]; then
    dir="$OUT"
    mkdir -p "$dir"
else
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
fi
deals="$dir/leads.pbn"
seed=$(printf '42%.0s' {1..32})
"$bin" generate --count "$n" --seed "$seed" --predeal 'W:AQ4.J.KJ6543.632' --to pbn \
    --out "$deals" --no-db -q

names=(endplay-1core dealdex-1core dealdex-2cores)
cmds=(
    "taskset -c 0 $ep/bin/python benches/lead_reference.py $deals W N"
    "taskset -c 0 $bin lead --file $deals --contract 3NT --declarer S"
    "$bin lead --file $deals --contract 3NT --declarer S"
)
if [ "${REDEAL:-}" != skip ]; then
    names+=(redeal-1core redeal-default)
    cmds+=(
        "taskset -c 0 $rd/bin/python benches/lead_redeal.py $deals 3NS --json $dir/redeal.json"
        "$rd/bin/python benches/lead_redeal.py $deals 3NS --json $dir/redeal.json"
    )
fi

echo "$n deals, $rounds rounds; commands:"
for i in "${!names[@]}"; do printf '  %-15s %s\n' "${names[$i]}" "${cmds[$i]}"; done
if [ "$rounds" = 0 ]; then
    echo "ROUNDS=0: the deals are in $deals; nothing timed"
    exit 0
fi
k=${#names[@]}
for ((r = 1; r <= rounds; r++)); do
    for ((j = 0; j < k; j++)); do
        i=$(((j + r - 1) % k))
        # shellcheck disable=SC2086 # each command is one string of plain words
        /usr/bin/time -f '%e %U %S %M' -o "$dir/time.${names[$i]}.$r" \
            ${cmds[$i]} >"$dir/out.${names[$i]}.$r" 2>&1 \
            || { echo "${names[$i]} failed:"; tail "$dir/out.${names[$i]}.$r"; exit 1; }
        echo "round $r: ${names[$i]} $(cut -d' ' -f1 "$dir/time.${names[$i]}.$r") s"
    done
done

python3 - "$dir" "$rounds" "${names[@]}" <<'EOF'
import statistics, sys
d, rounds, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rows = {}
for name in names:
    t = [list(map(float, open(f"{d}/time.{name}.{r}").read().split()[-4:]))
         for r in range(1, rounds + 1)]
    rows[name] = [statistics.median(x[c] for x in t) for c in range(4)] + [[x[0] for x in t]]
base = rows["endplay-1core"][0]
print(f"\n{'contestant':<15} {'wall':>8} {'user':>8} {'sys':>6} {'peak MB':>8}  vs endplay  walls")
for name, (wall, user, sys_, peak, walls) in rows.items():
    print(f"{name:<15} {wall:8.2f} {user:8.2f} {sys_:6.2f} {peak / 1024:8.0f}  {base / wall:8.2f}x  "
          + ", ".join(f"{w:.2f}" for w in walls))
print("(medians over the rounds; 'vs endplay' is endplay's median wall / the contestant's)")
EOF

echo
head -1 "$dir/out.endplay-1core.1"
grep -m1 -A15 '^lead' "$dir/out.dealdex-2cores.1"
if [ "${REDEAL:-}" != skip ]; then
    echo
    grep -A12 '^redeal OpeningLeadSim' "$dir/out.redeal-1core.1"
    echo
    echo "redeal's per-card results against dealdex's:"
    "$bin" lead --file "$deals" --contract 3NT --declarer S --json >"$dir/dealdex.json"
    python3 benches/lead_agree.py "$dir/redeal.json" "$dir/dealdex.json" || true
fi
