import Courier
import CourierTesting
import Foundation
import NotesAPI
import NotesServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A tour of Courier against a local server that plays a notes API, or a real one:
/// `courier-tour [--base-url URL] [--username NAME --password SECRET]`.
@main
struct Tour {
    static func main() async {
        let options = Options(CommandLine.arguments.dropFirst())
        var localServer: NotesServer?
        let baseURL: URL
        if let url = options.baseURL {
            baseURL = url
        } else {
            do {
                localServer = try NotesServer(tokenLifetime: 20)
            } catch {
                print("Could not start the local server: \(error)")
                exit(1)
            }
            baseURL = localServer!.baseURL
        }
        print("Courier tour against \(baseURL)\n")
        let succeeded = await run(TourContext(baseURL: baseURL, options: options))
        localServer?.stop()
        exit(succeeded ? 0 : 1)
    }

    static func run(_ tour: TourContext) async -> Bool {
        do {
            try await tour.signInAndLog()
            try await tour.sharedRefresh()
            try await tour.retriedUnavailable()
            try await tour.hookOrder()
            try await tour.transfers()
            try await tour.streamedAnswer()
            try await tour.liveUpdates()
            try await tour.offlineNotes()
            print("\nTour complete.")
            return true
        } catch {
            print("\nThe tour failed: \(error)")
            return false
        }
    }
}

/// The command line: `--base-url`, `--username` and `--password`.
struct Options {
    var baseURL: URL?
    var username = "ann"
    var password = "secret"

    init(_ arguments: ArraySlice<String>) {
        var rest = arguments.makeIterator()
        while let argument = rest.next() {
            switch argument {
            case "--base-url": baseURL = rest.next().flatMap(URL.init(string:))
            case "--username": username = rest.next() ?? username
            case "--password": password = rest.next() ?? password
            default: print("Ignoring unknown argument \(argument)")
            }
        }
    }
}
