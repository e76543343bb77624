import FuzzTargets

runFuzzTarget("receipt", ReceiptFuzz.fuzzOne)
