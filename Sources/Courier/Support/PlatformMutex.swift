#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operating system's own lock, one allocation: what ``Locked`` and the per-attempt
/// resilience record hold.
///
/// `NSLock` on Linux allocates and initialises a mutex, a condition variable and a second mutex
/// (for `lock(before:)`), which a value made per request pays for every time (measured with
/// callgrind in Benchmarks/count). `Synchronization.Mutex` would do, but needs macOS 15 / iOS 18.
/// The platforms differ only in the primitive: `os_unfair_lock` on Apple's systems (it needs
/// no destruction), `pthread_mutex_t` elsewhere.
struct PlatformMutex {
    #if canImport(Darwin)
        typealias Primitive = os_unfair_lock
    #else
        typealias Primitive = pthread_mutex_t
    #endif

    /// Where the lock lives: allocated once, never moved, freed by ``destroy()``.
    private let primitive: UnsafeMutablePointer<Primitive>

    /// A new, unlocked lock of its own allocation.
    init() {
        primitive = UnsafeMutablePointer<Primitive>.allocate(capacity: 1)
        Self.initialize(primitive)
    }

    /// Frees the lock; called once, by the owner's `deinit`, when nothing holds it.
    func destroy() {
        Self.deinitialize(primitive)
        primitive.deallocate()
    }

    /// Takes the lock, waiting for it.
    @inline(__always)
    func lock() { Self.lock(primitive) }

    /// Gives the lock back.
    @inline(__always)
    func unlock() { Self.unlock(primitive) }

    // The same on memory the caller owns (the tail of a `ManagedBuffer`, which saves an allocation).

    /// Makes an unlocked lock at `primitive`.
    static func initialize(_ primitive: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
            primitive.initialize(to: os_unfair_lock())
        #else
            primitive.initialize(to: pthread_mutex_t())
            pthread_mutex_init(primitive, nil)
        #endif
    }

    /// Ends the lock at `primitive`, which nothing holds.
    static func deinitialize(_ primitive: UnsafeMutablePointer<Primitive>) {
        #if !canImport(Darwin)
            pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
    }

    /// Takes the lock at `primitive`, waiting for it.
    @inline(__always)
    static func lock(_ primitive: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #else
            pthread_mutex_lock(primitive)
        #endif
    }

    /// Gives back the lock at `primitive`.
    @inline(__always)
    static func unlock(_ primitive: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #else
            pthread_mutex_unlock(primitive)
        #endif
    }
}
