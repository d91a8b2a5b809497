#!/usr/bin/env bash
# The layer rule of the engine's double-dummy module, until it is a crate of its own: which of
# the engine's modules it may import. (The model and the play of the cards are the crate
# dealdex-model, crates/model: Cargo keeps them from importing anything above.)
#
#   layer   files                    may use (crate::<module>::…)
#   dd      crates/dealdex/src/dd.rs      model, play, dd
#
# Besides these modules, it may name the error vocabulary at the root: crate::Classify,
# crate::ErrorClass and crate::InputPosition, and crate::classified!, which registers an error
# type beside its impl (dealdex-model's error.rs and classify.rs, re-exported). Any other root
# path (crate::Board, crate::first_matching, …) is a re-export of some module and is refused:
# name the module it comes from. So dd imports nothing above it: no formats, generation,
# query, store, workflow or cli (issue 28).
#
# What is checked: every `crate::<name>` in code, comments left out (doc links may point up);
# `use crate::{…}` is refused (group the imports by module: `use crate::model::{…}`), and so
# is `super::super` (name a module through crate::), and `super::` in crates/dealdex/src/dd.rs other than
# the tests' `use super::*;` (dd.rs's parent is the crate root).
#
# Prints file:line and the rule for every offending line and exits 1; exits 0 when all keep
# the rules. Bash and grep only; run from anywhere: `bash .ci/layers.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."

ROOT_ITEMS='Classify|ErrorClass|InputPosition|classified'
TESTS_USE='^[[:space:]]*use super::\*;'
found=0

# report FILE LINE MESSAGE
report() {
    echo "$1:$2: $3" >&2
    found=$((found + 1))
}

# check LAYER ALLOWED FILE…: ALLOWED is a `|`-separated list of module names.
check() {
    local layer=$1 allowed=$2
    shift 2
    local file n text code rest name
    local may="(allowed: ${allowed//|/, })"
    for file in "$@"; do
        # Only lines that name crate:: or super:: at all (grep -n: "line:text").
        while IFS= read -r hit; do
            n=${hit%%:*}
            text=${hit#*:}
            # Comments left out: a line comment (also //! and ///) to the end of the line.
            code=${text%%//*}
            if [[ $code =~ crate::\{ ]]; then
                report "$file" "$n" "$layer: \`use crate::{…}\`: import from each module by name"
            fi
            if [[ $code =~ super::super ]]; then
                report "$file" "$n" "$layer: \`super::super\`: name the module through crate::"
            fi
            if [[ $file == crates/dealdex/src/dd.rs && $code =~ super:: && ! $code =~ $TESTS_USE ]]; then
                report "$file" "$n" "$layer: \`super::\` in crates/dealdex/src/dd.rs is the crate root: use crate::"
            fi
            rest=$code
            while [[ $rest =~ (^|[^A-Za-z0-9_])crate::([A-Za-z_][A-Za-z0-9_]*)(.*)$ ]]; do
                name=${BASH_REMATCH[2]}
                rest=${BASH_REMATCH[3]}
                if [[ $name =~ ^($ROOT_ITEMS)$ ]]; then
                    continue
                elif [[ $rest == ::* ]]; then
                    if [[ ! $name =~ ^($allowed)$ ]]; then
                        report "$file" "$n" "$layer may not use crate::$name $may"
                    fi
                else
                    report "$file" "$n" "$layer may not use crate::$name (re-exported at the root): name its module"
                fi
            done
        done < <(grep -n -E 'crate::|super::' "$file" || true)
    done
}

# The files of a layer: its .rs files, sorted (none for a directory that does not exist).
files() {
    local p
    for p in "$@"; do
        if [[ -d $p ]]; then
            find "$p" -name '*.rs' -type f
        elif [[ -f $p ]]; then
            echo "$p"
        fi
    done | LC_ALL=C sort
}

mapfile -t dd < <(files crates/dealdex/src/dd.rs)
if [[ ${#dd[@]} -eq 0 ]]; then
    echo "layers.sh: crates/dealdex/src/dd.rs is missing: update the layer table" >&2
    exit 1
fi

check dd 'model|play|dd' "${dd[@]}"

if [[ $found -gt 0 ]]; then
    echo "layers.sh: $found line(s) break the layer rules (see the top of .ci/layers.sh)" >&2
    exit 1
fi
echo "layers.sh: dd keeps the layer rule (${#dd[@]} file)"
