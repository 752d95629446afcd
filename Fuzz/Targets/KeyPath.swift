import Foundation

/// Response mapping of arbitrary bodies with arbitrary key paths: errors, never a crash.
public func fuzzKeyPath(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(pointer, count)
    let keyPath = input.string(maximum: 24)
    let response = Response(statusCode: 200, data: input.rest())
    _ = try? response.mapJSON(failsOnEmptyData: false)
    _ = try? response.mapString()
    _ = try? response.mapString(atKeyPath: keyPath)
    _ = try? response.map(String.self, atKeyPath: keyPath)
    _ = try? response.map(Int.self, atKeyPath: keyPath)
    _ = try? response.map([String: Int].self, atKeyPath: keyPath, failsOnEmptyData: false)
    _ = try? response.map([Double].self)
    return 0
}
