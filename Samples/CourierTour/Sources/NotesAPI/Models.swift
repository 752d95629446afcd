import Courier
import Foundation

/// A note as the service returns it.
public struct Note: Codable, Equatable, Sendable {
    /// The note's identifier.
    public let id: Int
    /// The text.
    public let text: String

    /// Creates a note.
    public init(id: Int, text: String) {
        self.id = id
        self.text = text
    }
}

/// A note to create.
public struct NewNote: Codable, Equatable, Sendable {
    /// The text.
    public let text: String

    /// Creates a note to send.
    public init(text: String) {
        self.text = text
    }
}

/// A page of notes.
public struct NotesPage: Codable, Equatable, Sendable {
    /// Creates a page.
    public init(page: Int, notes: [Note]) {
        self.page = page
        self.notes = notes
    }

    /// The page number, from 1.
    public let page: Int
    /// The notes on this page.
    public let notes: [Note]
}

/// What signing in sends.
struct Credentials: Codable, Sendable {
    let username: String
    let password: String
}

/// The access and refresh tokens the service issues; a credential Courier's
/// `AuthenticationInterceptor` applies and refreshes.
public struct TokenPair: Codable, Equatable, Sendable, AuthenticationCredential {
    /// The short-lived token sent with each request.
    public let accessToken: String
    /// The long-lived token traded for a new pair.
    public let refreshToken: String

    /// Creates a token pair.
    public init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }

    /// The service does not say when tokens expire, so they are refreshed when it answers 401.
    public var requiresRefresh: Bool { false }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
    }
}
