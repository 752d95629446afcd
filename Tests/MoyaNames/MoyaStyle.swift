// A Moya codebase after `import Moya` became `import Courier`, unchanged otherwise: `.ci/run`
// type-checks it against Courier and expects each deprecated name's warning with its fix-it.
// It is not part of any target.
import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

enum GitHub: TargetType, AccessTokenAuthorizable {
    case zen
    case avatar(Data)

    var baseURL: URL { URL(string: "https://api.github.com")! }
    var path: String { self == .zen ? "/zen" : "/avatar" }
    var method: HTTPMethod { .get }
    var task: HTTPTask {
        switch self {
        case .zen: .requestPlain
        case .avatar(let data): .uploadMultipart([MultipartFormBodyPart(provider: .data(data), name: "file")])
        }
    }
    var headers: [String: String]? { nil }
    var authorizationType: AuthorizationType? { .bearer }

    static func == (lhs: GitHub, rhs: GitHub) -> Bool { lhs.path == rhs.path }
}

let endpointClosure: MoyaProvider<GitHub>.EndpointClosure = { target in
    MoyaProvider.defaultEndpointMapping(for: target)
}
// Two changes Swift 6 and a generic alias need: `@Sendable`, and `Provider.` where Moya wrote
// `MoyaProvider.RequestResultClosure`.
let requestClosure = { @Sendable (endpoint: Endpoint, done: @escaping Provider.RequestResultClosure) in
    do {
        let request = try endpoint.urlRequest()
        done(.success(request))
    } catch {
        done(.failure(MoyaError.underlying(error, nil)))
    }
}
let provider = MoyaProvider<GitHub>(
    endpointClosure: endpointClosure, requestClosure: requestClosure, stubClosure: MoyaProvider.delayedStub(0.5))
let multi = MoyaProvider<MultiTarget>(plugins: [AccessTokenPlugin { _ in "token" }])
let completion: MoyaProvider<GitHub>.Completion = { (result: Result<Response, MoyaError>) in print(result) }
let zenURL = URL(target: GitHub.zen)
let inflight = provider.inflightRequests.count
let part: FormDataProvider = .data(Data())
let transportError = TransportFailure(kind: .timedOut, underlying: URLError(.timedOut)).underlying
let report = ProgressResponse(progress: 1, completedBytes: 1, expectedBytes: 1)
let reportDone = report.completed
let reportObject = report.progressObject
let literalForm: MultipartFormData = [MultipartFormBodyPart(provider: .data(Data()), name: "a")]
let sameEndpoint = provider.endpoint(.zen) == provider.endpoint(.zen)
let postTakesForms = HTTPMethod.post.supportsMultipart
