// The benchmark executable behind `scripts/bench`. Always built in release mode.
// Each subcommand measures our code and OpenSSL on the same input in the same run
// and prints the ratio.
import BigNum
import Foundation

let usage = """
    usage: scripts/bench SUITE [options]
           scripts/bench --instructions SUITE [options]   (instruction counts under callgrind, not times)
    suites:
      ber      walk real and forge-sized receipts: BER reader vs OpenSSL ASN1_get_object
      forge    time `forge --all`; receipts signed per second vs OpenSSL PKCS7_sign
      verify   receipts verified per second, ours (with/without the signature cache) vs OpenSSL PKCS7_verify
      bignum   BigNum kernels per ISA level (crossover table), and vs OpenSSL BN_* incl. x^65537 mod m;
               --svg FILE draws time against size per level
      check    forge check's per-case overhead beyond the validator's own run (validator: /bin/true)
      serve    forge serve under wrk: verifyReceipt at 32 and 256 connections, Server API Get Transaction Info and a
               history page at 32 (requests/s, p50/p99), RSS after 10k and 1M requests
      serve-tls  Get Transaction Info at 32 connections over HTTP/1.1, HTTPS/1.1 (wrk) and HTTP/2 on TLS (h2load):
               requests/s, p50/p99 and the ratio to plain HTTP, one run
      notify   forge serve --notify-url to a local webhook: notifications signed and delivered per second (a
               backlog of retries), RSS with 100,000 notifications in history (--notifications N)
      store-load  build the local App Store's default population (--customers N, default 100000): time and peak RSS
      store-stall forge serve (10,000 customers): /health and Get Transaction Info p50/p99 while one advanceClock moves a
               year (--customers N, --seconds S)
      store-soak  forge serve at a time rate left alone: RSS every 30 s, then Get Notification History within its window
               (--customers N, default 1000; --time-rate R, default oneRenewalEveryTwoSeconds; --minutes M, default 10; --every S)
    """

let arguments = Array(CommandLine.arguments.dropFirst())
if let error = BigNum.Dispatch.environmentError {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(64)
}
switch arguments.first {
case "ber":
    runBERBench(Array(arguments.dropFirst()))
case "forge":
    runForgeBench(Array(arguments.dropFirst()))
case "verify":
    runVerifierBench(Array(arguments.dropFirst()))
case "bignum":
    runBigNumBench(Array(arguments.dropFirst()))
case "check":
    runCheckBench(Array(arguments.dropFirst()))
case "serve":
    runServeBench(Array(arguments.dropFirst()))
case "serve-tls":
    runTLSServeBench(Array(arguments.dropFirst()))
case "notify":
    runNotifyBench(Array(arguments.dropFirst()))
case "store-load":
    runStoreLoadBench(Array(arguments.dropFirst()))
case "store-stall":
    runStoreStallBench(Array(arguments.dropFirst()))
case "store-soak":
    runStoreSoakBench(Array(arguments.dropFirst()))
default:
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(arguments.isEmpty || arguments.first == "--help" ? 0 : 64)
}
