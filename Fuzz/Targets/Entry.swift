import Foundation

/// The target this process fuzzes, named by `COURIER_FUZZ_TARGET`: one binary holds every
/// harness, so the sources under test compile once for all of them.
let selectedHarness: @Sendable (UnsafePointer<UInt8>, Int) -> CInt = {
    let name = ProcessInfo.processInfo.environment["COURIER_FUZZ_TARGET"] ?? ""
    switch name {
    case "parameters": return fuzzParameters
    case "multipart": return fuzzMultipart
    case "keypath": return fuzzKeyPath
    case "request-reader": return fuzzRequestReader
    case "security": return fuzzSecurity
    case "event-stream": return fuzzEventStream
    case "http-semantics": return fuzzHTTPSemantics
    default: fatalError("COURIER_FUZZ_TARGET names no fuzz target: '\(name)'")
    }
}()

/// libFuzzer's entry point: hands the input to the selected harness.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSelectedTarget(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    selectedHarness(pointer, count)
}
