extension TargetType {
    /// The API target this one stands for: the target a ``MultiTarget`` (or any
    /// ``TargetWrapper``) wraps, however deeply, or this target itself.
    ///
    /// Plugins and interceptors receive the target as the provider holds it; with a
    /// `Provider<MultiTarget>` that is the wrapper. Reach the API enum the same way everywhere:
    /// ```swift
    /// func willSend(_ request: PreparedRequest, target: any TargetType) {
    ///     if case .login? = target.underlyingTarget(as: MyAPI.self) { return }
    /// }
    /// ```
    public var underlyingTarget: any TargetType {
        var current: any TargetType = self
        while let wrapper = current as? any TargetWrapper {
            current = wrapper.wrappedTarget
        }
        return current
    }

    /// The underlying target (see ``underlyingTarget``) if it is a `Wrapped`.
    /// - Parameter type: The API's target type.
    /// - Returns: The underlying target, or `nil` when it is of another type.
    public func underlyingTarget<Wrapped: TargetType>(as type: Wrapped.Type) -> Wrapped? {
        underlyingTarget as? Wrapped
    }
}
