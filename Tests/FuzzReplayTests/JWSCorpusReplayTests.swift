import FuzzTargets
import XCTest

extension CorpusReplayTests {
    /// `Corpus/jws/`: every StoreKit 2 case's file, the nested JWS of the notifications
    /// and the JWS CA's certificates (as x5c[0]), plus what fuzzing kept.
    func testJWSCorpus() throws {
        try replay("jws", minimum: 40, JWSFuzz.fuzzOne)
    }
}
