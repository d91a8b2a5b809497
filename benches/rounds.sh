# Sourced by the side-by-side benchmark scripts (dd_candidates.sh, stream_compare.sh): their
# contestants and the timed rounds.
#   add NAME COMMAND    a contestant (COMMAND runs under sh -c)
#   run_rounds OUT N    N rounds, the order turned each round so that no contestant always
#                       runs first; each run whole under /usr/bin/time, its standard output
#                       kept in OUT/NAME.out; one line "NAME wall user peak-KiB" a run
#                       written to OUT/times (emptied first)
names=() cmds=()
add() { names+=("$1"); cmds+=("$2"); }
run_rounds() {
    local out=$1 rounds=$2 k=${#names[@]} r j i wall user peak
    : > "$out/times"
    for r in $(seq 1 "$rounds"); do
        for j in $(seq 0 $((k - 1))); do
            i=$(( (j + r - 1) % k ))
            /usr/bin/time -f "%e %U %M" -o "$out/time" sh -c "${cmds[$i]} > $out/${names[$i]}.out"
            read -r wall user peak < "$out/time"
            echo "${names[$i]} $wall $user $peak" >> "$out/times"
            echo "round $r: ${names[$i]} $wall s"
        done
    done
}
