import BigNumFuzzTarget
import FuzzSupport

runFuzzTarget("bignum", BigNumFuzz.fuzzOne)
