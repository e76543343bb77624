# Sourced by scripts/fuzz, scripts/fuzz-merge and .clusterfuzzlite/build.sh.
# build_fuzz_target TARGET: builds fuzz-TARGET for libFuzzer and sets FUZZ_BIN.
#
# SwiftPM renames `main`, so -sanitize=fuzzer cannot link an executable target.
# Instead: coverage instrumentation and ASan from swiftc, libFuzzer's no-main
# runtime linked by hand, and main.swift calling LLVMFuzzerRunDriver (-DFUZZING).
#
# No trace-cmp: libFuzzer uses 1-byte comparisons only for -use_value_profile (off
# by default), and Swift code compares bytes, Bools and bounds everywhere, so the
# callbacks took 16 % of `ber` and 40 % of `bignum` (docs/fuzzing.md, "Throughput").
# FUZZ_COVERAGE overrides the -sanitize-coverage list (e.g. to add trace-cmp back).
FUZZ_COVERAGE="${FUZZ_COVERAGE:-edge,inline-8bit-counters,pc-table}"
FUZZ_SCRATCH="${FUZZ_SCRATCH:-.build-fuzz}"

fuzzer_runtime() {
    local swiftc resource
    swiftc=$(command -v swiftc)
    resource="$(dirname "$(dirname "$(readlink -f "$swiftc")")")/lib/clang"
    local runtimes=("$resource"/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a)
    if [ -e "${runtimes[0]}" ]; then echo "${runtimes[0]}"; fi
}

build_fuzz_target() {
    local target="$1" runtime
    runtime=$(fuzzer_runtime)
    [ -n "$runtime" ] || { echo "libclang_rt.fuzzer_no_main not found beside swiftc" >&2; return 1; }
    echo "building fuzz-$target (release, ASan, coverage) in $FUZZ_SCRATCH…" >&2
    # SwiftPM's incremental build does not recompile unchanged files when only
    # -Xswiftc flags change, so a new coverage list would leave old objects (with or
    # without trace-cmp) in the binary. The release products are rebuilt from scratch
    # when the list differs from the one they were built with.
    local stamp="$FUZZ_SCRATCH/fuzz-coverage-flags"
    if [ -d "$FUZZ_SCRATCH" ] && [ "$(cat "$stamp" 2>/dev/null)" != "$FUZZ_COVERAGE" ]; then
        echo "coverage flags changed (${FUZZ_COVERAGE}): rebuilding $FUZZ_SCRATCH's release products" >&2
        rm -rf "$FUZZ_SCRATCH"/*/release
    fi
    mkdir -p "$FUZZ_SCRATCH" && echo "$FUZZ_COVERAGE" > "$stamp"
    swift build -c release --scratch-path "$FUZZ_SCRATCH" --product "fuzz-$target" \
        -Xswiftc -DFUZZING \
        -Xswiftc -sanitize=address \
        -Xswiftc -sanitize-coverage="$FUZZ_COVERAGE" \
        -Xswiftc -g \
        -Xlinker "$runtime" -Xlinker -lstdc++ >&2 || { echo "building fuzz-$target failed" >&2; return 1; }
    FUZZ_BIN="$(swift build -c release --scratch-path "$FUZZ_SCRATCH" --show-bin-path)/fuzz-$target"
    export FUZZ_BIN
}
