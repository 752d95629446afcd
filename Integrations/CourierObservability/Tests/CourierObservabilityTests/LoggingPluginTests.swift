import Courier
import CourierObservability
import CourierTesting
import Foundation
import InMemoryLogging
import Logging
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("LoggingPlugin")
struct LoggingPluginTests {
    private func logged(_ handler: InMemoryLogHandler, level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "shop") { _ in handler }
        logger.logLevel = level
        return logger
    }

    @Test("a success: one entry per attempt sent and answered, one for the result, with metadata")
    func success() async throws {
        let server = try LoopbackServer { _ in .json(#"{"items":[]}"#) }
        let handler = InMemoryLogHandler()
        let provider = Provider<ShopAPI>(plugins: [LoggingPlugin(logger: logged(handler))])

        _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 2)))

        let entries = handler.entries
        #expect(entries.map(\.message.description) == ["attempt sent", "attempt answered", "request succeeded"])
        #expect(entries.map(\.level) == [.trace, .trace, .debug])
        let result = try #require(entries.last?.metadata)
        #expect(result["courier.target"] == "ShopAPI")
        #expect(result["http.request.method"] == "GET")
        #expect(result["http.response.status_code"] == "200")
        #expect(result["courier.attempts"] == "1")
        #expect(result["http.response.body.size"] == "12")
        #expect(result["courier.request_id"] == entries.first?.metadata["courier.request_id"])
        #expect(result["url.full"]?.description.contains("page=2") == true)
        Self.expectNoSecret(entries)
    }

    @Test("a retried attempt is logged at debug, not as an error; the result once")
    func retried() async throws {
        let count = TestBox(0)
        let server = try LoopbackServer { _ in
            count.modify { $0 += 1 }
            return count.value == 1 ? ServerReply(status: 503) : .json("{}")
        }
        let handler = InMemoryLogHandler()
        let provider = Provider<ShopAPI>(
            plugins: [LoggingPlugin(logger: logged(handler))],
            interceptor: Retrier { _, _, context in context.attempt < 2 ? .retry : .doNotRetry })

        _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        let entries = handler.entries
        #expect(
            entries.map(\.message.description) == [
                "attempt sent", "attempt failed", "attempt sent", "attempt answered", "request succeeded",
            ])
        #expect(!entries.contains { $0.level >= .warning })
        #expect(entries[1].level == .debug)
        #expect(entries[1].metadata["error.type"] == "503")
        #expect(entries[2].metadata["courier.attempt"] == "2")
        #expect(entries.last?.metadata["courier.attempts"] == "2")
        Self.expectNoSecret(entries)
    }

    @Test("a service logging at info sees nothing of healthy or retried requests, and every failure")
    func serviceAtInfo() async throws {
        let count = TestBox(0)
        let server = try LoopbackServer { request in
            count.modify { $0 += 1 }
            if request.path.hasPrefix("/missing") { return ServerReply(status: 404) }
            return count.value == 1 ? ServerReply(status: 503) : .json("{}")
        }
        let handler = InMemoryLogHandler()
        let provider = Provider<ShopAPI>(
            plugins: [LoggingPlugin(logger: logged(handler, level: .info))],
            interceptor: Retrier { _, _, context in context.attempt < 2 ? .retry : .doNotRetry })

        for page in 1...20 {
            _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: page)))
        }
        #expect(handler.entries.isEmpty)
        _ = try? await provider.request(ShopAPI(baseURL: URL(string: "\(server.baseURL)/missing")!, call: .login))
        #expect(handler.entries.map(\.level) == [.warning])
    }

    @Test("every level can be set")
    func customLevels() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let handler = InMemoryLogHandler()
        var levels = LoggingPlugin.Levels()
        levels.success = .info
        levels.attempt = .debug
        let provider = Provider<ShopAPI>(
            plugins: [LoggingPlugin(logger: logged(handler, level: .debug), levels: levels)])

        _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))
        #expect(handler.entries.map(\.level) == [.debug, .debug, .info])
    }

    @Test("a rejected status is a warning; a transport failure an error with its kind; a cancellation info")
    func failures() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 404) }
        let handler = InMemoryLogHandler()
        let provider = Provider<ShopAPI>(plugins: [LoggingPlugin(logger: logged(handler))])

        _ = try? await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))
        #expect(handler.entries.last?.level == .warning)
        #expect(handler.entries.last?.metadata["error.type"] == "404")

        // A port that refuses for the whole test (a stopped server's may be taken meanwhile).
        let closed = try ClosedPort()
        _ = try? await provider.request(ShopAPI(baseURL: closed.baseURL, call: .items(page: 1)))
        #expect(handler.entries.last?.level == .error)
        #expect(handler.entries.last?.message.description == "request failed")
        #expect(handler.entries.last?.metadata["error.type"] == "cannotConnect")

        let cancelled = Task { try await provider.request(ShopAPI(baseURL: server.baseURL, call: .login)) }
        cancelled.cancel()
        _ = try? await cancelled.value
        #expect(handler.entries.last?.message.description == "request cancelled")
        #expect(handler.entries.last?.metadata["error.type"] == "cancelled")
        Self.expectNoSecret(handler.entries)
    }

    @Test("a redirect is followed within its attempt: the same three entries, the final URL in the result")
    func redirect() async throws {
        let server = try LoopbackServer { request in
            request.path == "/items" ? ServerReply(status: 302, headers: ["Location": "/final"]) : .json("{}")
        }
        let handler = InMemoryLogHandler()
        let provider = Provider<ShopAPI>(plugins: [LoggingPlugin(logger: logged(handler))])

        _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        #expect(
            handler.entries.map(\.message.description) == ["attempt sent", "attempt answered", "request succeeded"])
        #expect(handler.entries.last?.metadata["http.response.status_code"] == "200")
        #expect(server.requests.count == 2)
        Self.expectNoSecret(handler.entries)
    }

    @Test("a logger bound to the task carries the caller's metadata into every entry")
    func taskLogger() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let fallback = InMemoryLogHandler()
        let bound = InMemoryLogHandler()
        let provider = Provider<ShopAPI>(plugins: [LoggingPlugin(logger: logged(fallback))])
        var perCall = logged(bound)
        perCall[metadataKey: "job.id"] = "nightly-42"

        _ = try await LoggingPlugin.withLogger(perCall) {
            try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))
        }

        #expect(fallback.entries.isEmpty)
        #expect(bound.entries.count == 3)
        #expect(bound.entries.allSatisfy { $0.metadata["job.id"] == "nightly-42" })
    }

    /// No entry's message or metadata holds the secret of ShopAPI's URL and headers.
    static func expectNoSecret(_ entries: [InMemoryLogHandler.Entry]) {
        for entry in entries {
            let text = "\(entry.message) \(entry.metadata)"
            #expect(!text.contains(ShopAPI.secret), "secret in \(text)")
            #expect(!text.contains(ShopAPI.nestedSecret), "nested secret in \(text)")
        }
    }
}
