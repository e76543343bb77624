import FuzzTargets

runFuzzTarget("jws", JWSFuzz.fuzzOne)
