import Foundation

extension Response {
    /// The links of the response's `Link` fields (RFC 8288) by relation type, lower-cased, each
    /// resolved against the response's URL: the pages of a paginated API, as GitHub, GitLab and
    /// many others give them.
    ///
    /// ```swift
    /// let provider = Provider<Repositories>()
    /// var page = try await provider.request(.list(owner: "apple"))
    /// while let next = page.links["next"], next.host == page.request?.url?.host {
    ///     page = try await provider.request(.page(next))   // a case whose baseURL is the link
    /// }
    /// ```
    /// A link whose context is another resource (an `anchor` parameter) is left out; of two links
    /// with the same relation, the first is kept. The URL comes from the server: check its host
    /// before a request that carries credentials follows it.
    public var links: [String: URL] {
        let values = headerFields.values(for: "Link")
        guard !values.isEmpty else { return [:] }
        return LinkField.links(in: values, base: response?.url ?? request?.url)
    }
}
