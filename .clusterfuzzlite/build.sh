#!/usr/bin/env bash
# Builds every fuzz target for ClusterFuzzLite / OSS-Fuzz into $OUT, with
# <target>.dict, <target>.options and <target>_seed_corpus.zip beside each binary.
#
# Inside the builder image $SRC and $OUT are set. Outside it (this machine, no
# Docker) it runs as is: the checkout is found from this script's location and $OUT
# defaults to .build-fuzz/out. Same build recipe as scripts/fuzz.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ -f "$repo/Package.swift" ] || repo="${SRC:?}/receipt-forge"
cd "$repo"
OUT="${OUT:-$repo/.build-fuzz/out}"
mkdir -p "$OUT"
source scripts/fuzz-build.sh

# CFLITE_TARGETS="ber verifier" builds only those (scripts/cflite-build-local --targets).
targets=${CFLITE_TARGETS:-$(ls Fuzz/Targets)}
for target in $targets; do
    build_fuzz_target "$target"
    cp "$FUZZ_BIN" "$OUT/fuzz-$target"
    [ -f "Corpus/$target.dict" ] && cp "Corpus/$target.dict" "$OUT/fuzz-$target.dict"
    [ -f "Corpus/$target.options" ] && cp "Corpus/$target.options" "$OUT/fuzz-$target.options"
    python3 - "$repo/Corpus/$target" "$OUT/fuzz-${target}_seed_corpus.zip" <<'PY'
import os, sys, zipfile
folder, archive = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
    for directory, _, names in sorted(os.walk(folder)):   # findings/ included
        for name in sorted(names):
            zf.write(os.path.join(directory, name), name)
PY
    echo "built $OUT/fuzz-$target ($(ls Corpus/$target 2>/dev/null | wc -l) seeds)"
done
