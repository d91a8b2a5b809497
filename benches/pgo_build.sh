#!/usr/bin/env bash
# A profile-guided release build of dealdex: the double-dummy solver about 7 % faster on one
# core than `cargo build --profile dist`'s (benches/RESULTS.md, "Profile-guided optimization"),
# the same tables. Four steps:
#   1. an instrumented dist build into target/pgo-gen (-Cprofile-generate);
#   2. its training run: 40 random deals of a fixed seed solved (every strain and declarer)
#      and 2,000,000 deals generated to hex, so the solver and the deal stream are hot;
#   3. the profile merged by the toolchain's own llvm-profdata (`rustup component add
#      llvm-tools`: the profile format follows rustc's LLVM, so Debian's llvm-profdata will
#      not do);
#   4. the dist build with it (-Cprofile-use) into target/pgo: target/pgo/dist/dealdex.
# Arguments are passed to both builds (e.g. --features dds). The profile is kept in
# target/pgo-profile; a build after a code change retrains (run the script again).
#
#   benches/pgo_build.sh [--features dds]
set -euo pipefail
cd "$(dirname "$0")/.."
profdata=$(find "$(rustc --print sysroot)" -name llvm-profdata -type f | head -1)
[ -n "$profdata" ] || { echo "needs llvm-profdata: rustup component add llvm-tools" >&2; exit 2; }
raw="$PWD/target/pgo-profile/raw"
merged="$PWD/target/pgo-profile/dealdex.profdata"
rm -rf "$raw" && mkdir -p "$raw"
RUSTFLAGS="-Cprofile-generate=$raw" cargo build --profile dist -q --target-dir target/pgo-gen "$@"
train=target/pgo-gen/dist/dealdex
seed=$(printf '3c%.0s' {1..32})
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$train" generate --boards 1-40 --seed "$seed" --no-db -q --out "$work/train.pbn"
"$train" solve "$work/train.pbn" --no-db -q --to json > /dev/null
"$train" generate --count 2000000 --seed "$seed" --no-db -q --format hex --out /dev/null
"$profdata" merge -o "$merged" "$raw"
# The profile's path is fixed, so cargo would not see a new profile: dealdex itself is rebuilt
# (its dependencies' code, pons-dds's search included, does not change between trainings).
cargo clean -q -p dealdex --profile dist --target-dir target/pgo
RUSTFLAGS="-Cprofile-use=$merged" cargo build --profile dist -q --target-dir target/pgo "$@"
echo "target/pgo/dist/dealdex (profile: $merged)"
