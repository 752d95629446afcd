import Foundation

/// The values of ``URLSessionTransport/defaultHeaders``, in the form Alamofire sends them.
enum DefaultHeaders {
    /// Courier's version, as the `User-Agent` names it.
    static let courierVersion = "0.1.0"

    /// `Program/version (bundle; build:N; OS version) Courier/version`, leaving out what the
    /// program does not declare (a Linux executable has no bundle); printable ASCII only.
    static func userAgent(bundle: Bundle = .main, processName: String = ProcessInfo.processInfo.processName) -> String {
        let info = bundle.infoDictionary ?? [:]
        let executable = info["CFBundleExecutable"] as? String ?? processName
        let version = info["CFBundleShortVersionString"] as? String
        let details = [
            bundle.bundleIdentifier,
            (info["CFBundleVersion"] as? String).map { "build:\($0)" },
            operatingSystem(),
        ].compactMap { $0 }
        let program = executable + (version.map { "/\($0)" } ?? "")
        return printable("\(program) (\(details.joined(separator: "; "))) Courier/\(courierVersion)")
    }

    /// Up to six languages, with falling quality values: `en-GB;q=1.0, en;q=0.9`.
    static func acceptLanguage(_ languages: [String]) -> String {
        let chosen = languages.prefix(6).map(printable).filter { !$0.isEmpty }
        guard !chosen.isEmpty else { return "en;q=1.0" }
        return chosen.enumerated().map { index, language in
            "\(language);q=\(String(format: "%.1f", 1.0 - Double(index) * 0.1))"
        }.joined(separator: ", ")
    }

    /// The platform's name and version, for example `Linux 6.1.0` or `iOS 18.1.0`.
    private static func operatingSystem() -> String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let number = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        // Only the name differs by platform; every platform gets a header.
        #if os(iOS)
            let name = "iOS"
        #elseif os(macOS)
            let name = "macOS"
        #elseif os(tvOS)
            let name = "tvOS"
        #elseif os(watchOS)
            let name = "watchOS"
        #elseif os(visionOS)
            let name = "visionOS"
        #elseif os(Linux)
            let name = "Linux"
        #elseif os(Windows)
            let name = "Windows"
        #else
            let name = "Unknown"
        #endif
        return "\(name) \(number)"
    }

    /// `text` without control characters or non-ASCII, so that no header line can be broken.
    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }))
    }
}
