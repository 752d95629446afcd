import Courier
import Foundation

extension CasePlay {
    /// The step's expectations against the client's outcome and what the server saw.
    func check(_ step: CacheTestCase.Step, number: Int, _ outcome: Result<Response, CourierError>) -> [String] {
        guard let expect = step.expect else { return [] }
        let response: Response
        switch outcome {
        case .success(let answer): response = answer
        case .failure(let error):
            // No answer at all satisfies a step that accepts any status but no stored answer:
            // Courier reports the engine's error where the RFC lets a cache make a 504.
            let acceptsFailure = expect.anyStatus == true && expect.source == nil
            return acceptsFailure ? [] : ["the request failed: \(error)"]
        }
        var failures: [String] = []
        let arrival = seenArrival(number)
        let producedBy = response.headerFields["Server-Arrival"].flatMap(Int.init)
        switch expect.source {
        case "cache"?:
            if producedBy == number { failures.append("expected from cache, the server answered") }
        case "server"?:
            if producedBy != number { failures.append("expected from the server, got a stored answer") }
        case "etag"?, "lm"?:
            let name = expect.source == "etag" ? "if-none-match" : "if-modified-since"
            if arrival == nil || !(arrival?.fields.contains { $0.name.lowercased() == name } ?? false) {
                failures.append("expected a validation with \(name)")
            } else if response.statusCode == 999 {
                failures.append("the validator sent did not match")
            }
        default: break
        }
        if let status = expect.status, response.statusCode != status {
            failures.append("status \(response.statusCode), expected \(status)")
        }
        failures += fieldChecks(expect, response, arrival: arrival)
        return failures
    }

    private func seenArrival(_ number: Int) -> (method: String, fields: [(name: String, value: String)])? {
        seenArrivals[number]
    }

    /// Expected, absent and sent fields, and the method seen.
    private func fieldChecks(
        _ expect: CacheTestCase.Expectation, _ response: Response,
        arrival: (method: String, fields: [(name: String, value: String)])?
    ) -> [String] {
        var failures: [String] = []
        for field in expect.fields ?? [] {
            let value = response.headerFields[field.name]
            if let greaterThan = field.greaterThan {
                if (value.flatMap(Double.init) ?? -.infinity) <= greaterThan {
                    failures.append("\(field.name) \(value ?? "absent"), expected > \(greaterThan)")
                }
            } else if let expected = field.value, value != expected {
                failures.append("\(field.name) \(value ?? "absent"), expected \(expected)")
            } else if field.value == nil, field.secondsFromNow == nil, value == nil {
                failures.append("\(field.name) absent")
            }
        }
        for field in expect.fieldsAbsent ?? [] where response.headerFields[field.name] != nil {
            failures.append("\(field.name) present, expected absent")
        }
        for field in expect.sentFields ?? [] {
            let sent = arrival?.fields.first { $0.name.lowercased() == field.name.lowercased() }?.value
            if sent != field.value {
                failures.append("sent \(field.name) \(sent ?? "absent"), expected \(field.value ?? "")")
            }
        }
        if let method = expect.methodSeen, arrival?.method != method {
            failures.append("the server saw \(arrival?.method ?? "nothing"), expected \(method)")
        }
        return failures
    }
}

/// A step's request.
struct CacheTestTarget: TargetType {
    let base: URL
    let index: Int
    let number: Int
    let step: CacheTestCase.Step

    var baseURL: URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        components.path = "/\(index)/\(step.file ?? "test")"
        components.percentEncodedQuery = step.query
        return components.url!
    }
    var path: String { "" }
    var method: HTTPMethod { HTTPMethod(rawValue: step.method ?? "GET") }
    var task: HTTPTask { step.sendBody.map { .requestData(Data($0.utf8)) } ?? .requestPlain }
    var headers: [String: String]? {
        var headers = ["Cache-Test-Step": String(number)]
        for field in step.send ?? [] { headers[field.name] = field.value ?? "" }
        return headers
    }
}
