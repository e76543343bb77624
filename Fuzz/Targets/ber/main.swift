import BERFuzzTarget
import FuzzSupport

runFuzzTarget("ber", BERFuzz.fuzzOne)
