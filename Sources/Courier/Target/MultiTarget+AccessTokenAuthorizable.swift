extension MultiTarget: AccessTokenAuthorizable {
    /// The wrapped target's scheme, if it declares one (as in Moya).
    public var authorizationType: AuthorizationType? {
        (underlyingTarget as? any AccessTokenAuthorizable)?.authorizationType
    }
}
