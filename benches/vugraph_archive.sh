#!/usr/bin/env bash
# Issue 53's archive measurement: every LIN file under DIR (e.g. a copy of part of Nicolas
# Hammond's vugraph archive, github.com/eitazhou/bridge_played_hands, lin_data/) imported into
# a fresh database, then every played card judged double dummy. Prints files a second, boards
# stored, the inconsistencies found by kind, and judge's cards a second.
#
#   cargo build --release && benches/vugraph_archive.sh DIR [DB]
#
# BIN overrides the binary (default target/release/dealdex).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/target/release/dealdex}
DIR=${1:?usage: vugraph_archive.sh DIR [DB]}
DB=${2:-vugraph-archive.db}
rm -f "$DB" "$DB"-*
mapfile -t FILES < <(find "$DIR" -type f \( -name '*.lin' -o -regex '.*/[0-9]+' \) | sort)
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; ${#FILES[@]} files"
start=$(date +%s.%N)
"$BIN" import --json --db "$DB" --from lin "${FILES[@]}" >import.json
end=$(date +%s.%N)
python3 - "$start" "$end" <<'EOF'
import collections, json, sys
start, end = map(float, sys.argv[1:3])
r = json.load(open("import.json"))
files = r["files"]
kinds = collections.Counter(i["kind"] for f in files for i in f.get("inconsistencies") or [])
with_any = sum(1 for f in files if f.get("inconsistencies"))
status = collections.Counter(f["status"] for f in files)
wall = end - start
print(f"import: {len(files)} files in {wall:.2f} s ({len(files) / wall:.1f} files/s); status {dict(status)}")
print(f"  boards read {r['boards_read']}, skipped {r['boards_skipped']}, new deals {r['new_deals']}, "
      f"duplicates {r['duplicates']}, played {sum(f.get('played') or 0 for f in files)}, "
      f"plays {sum(f.get('plays') or 0 for f in files)}")
print(f"  inconsistent records {sum(kinds.values())} in {with_any} files: "
      + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
EOF
"$BIN" judge --json --db "$DB" >judge.json
python3 - <<'EOF'
import json
j = json.load(open("judge.json"))
print(f"judge: {j['boards']} boards, {j['cards']} cards in {j['seconds']:.1f} s "
      f"({j['cards_per_second']:.0f} cards/s; tables solved for par {j['solved']}); "
      f"declarer lost {j['declarer_lost']}, defence lost {j['defence_lost']} tricks; faults {j['faults']}")
EOF
