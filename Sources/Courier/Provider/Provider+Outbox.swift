import Foundation

extension Provider where Target: Codable {
    /// Opens the outbox queue `name` in `folder`: the entries an earlier process left there are
    /// sent first, and their stored outcomes delivered (see ``Outbox``).
    ///
    /// ```swift
    /// let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
    /// let folder = support.appendingPathComponent("Outbox")
    /// let posts = try provider.outbox(named: "posts", in: folder)
    /// try await posts.enqueue(.like(postID: 42))
    /// ```
    /// Queues of different names are independent (each in order, all in parallel). A queue has
    /// one owner at a time: close it (``Outbox/close()``) before opening it again.
    /// - Parameters:
    ///   - name: The queue's name: 1 to 64 letters, digits, `.`, `_` or `-`.
    ///   - folder: The folder of the app's outboxes; the queue's files are in `folder/name/`.
    ///   - options: Bounds and pace; the defaults when omitted.
    /// - Returns: The outbox, sending.
    /// - Throws: ``OutboxError/invalidName(_:)``, ``OutboxError/locked(name:)``, or a storage error.
    public func outbox(
        named name: String, in folder: URL, options: OutboxOptions = OutboxOptions()
    ) throws(OutboxError) -> Outbox<Target> {
        try Outbox(provider: self, name: name, folder: folder, options: options)
    }
}
