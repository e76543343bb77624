import FuzzTargets

runFuzzTarget("verifier", VerifierFuzz.fuzzOne)
