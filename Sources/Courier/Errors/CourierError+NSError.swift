import Foundation

extension CourierError: CustomNSError {
    /// The error's domain when bridged to `NSError`: `"Courier.CourierError"`.
    public static var errorDomain: String { "Courier.CourierError" }

    /// What a bridged `NSError` carries, as Moya's errors do: the description under
    /// `NSLocalizedDescriptionKey` and, when there is one, the ``underlyingError`` under
    /// `NSUnderlyingErrorKey` (a decoding error of ``objectMapping(_:_:)``, an encoding error of
    /// ``encodableMapping(_:)`` or ``parameterEncoding(_:)``, the error of ``underlying(_:_:)``…).
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: errorDescription ?? description]
        if let underlyingError { userInfo[NSUnderlyingErrorKey] = underlyingError as NSError }
        return userInfo
    }
}
