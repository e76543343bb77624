import FuzzTargets

runFuzzTarget("ber", BERFuzz.fuzzOne)
