import FuzzTargets

runFuzzTarget("x509", X509Fuzz.fuzzOne)
