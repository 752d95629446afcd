import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``CourierError`` bridged to `NSError` keeps its underlying error, as Moya's does.
@Suite("CourierError as NSError")
struct CourierErrorNSErrorTests {
    private struct Cause: Error, CustomNSError {
        static var errorDomain: String { "Cause" }
        var errorCode: Int { 7 }
    }

    private static let response = Response(statusCode: 200, data: Data("{}".utf8))

    @Test(
        "object mapping, encodable mapping, underlying and parameter encoding keep NSUnderlyingErrorKey",
        arguments: [
            CourierError.objectMapping(Cause(), response), .encodableMapping(Cause()), .underlying(Cause(), nil),
            .underlying(Cause(), response), .parameterEncoding(Cause()), .requestBuilding(Cause()),
        ])
    func underlyingKept(error: CourierError) throws {
        let bridged = error as NSError
        let underlying = try #require(bridged.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == "Cause")
        #expect(underlying.code == 7)
        #expect(bridged.domain == "Courier.CourierError")
        #expect(bridged.localizedDescription == error.errorDescription)
    }

    @Test("an error without an underlying one has no NSUnderlyingErrorKey")
    func noUnderlying() {
        let bridged = CourierError.statusCode(Self.response) as NSError
        #expect(bridged.userInfo[NSUnderlyingErrorKey] == nil)
        #expect(bridged.localizedDescription == CourierError.statusCode(Self.response).errorDescription)
    }
}
