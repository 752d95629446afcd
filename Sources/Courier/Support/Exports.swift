#if canImport(FoundationNetworking)
    // On Linux, URLRequest, HTTPURLResponse and URLSession live in FoundationNetworking, not
    // Foundation. Courier's API speaks them (an authenticator's `apply`, a plugin's `prepare`), so
    // it brings them along: code written against Courier compiles the same on every platform with
    // the imports an Apple developer writes.
    @_exported import FoundationNetworking
#endif
