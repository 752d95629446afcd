/// A target that stands for another one, such as ``MultiTarget``: Courier's hooks receive the
/// wrapper, and ``TargetType/underlyingTarget`` reaches through it.
///
/// Conform your own wrapper (a target that adds headers to any API's target, say) so that
/// authenticators and built-in plugins see the target it wraps.
public protocol TargetWrapper: TargetType {
    /// The target this one wraps.
    var wrappedTarget: any TargetType { get }
}
