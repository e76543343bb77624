import FuzzTargets

runFuzzTarget("bignum", BigNumFuzz.fuzzOne)
