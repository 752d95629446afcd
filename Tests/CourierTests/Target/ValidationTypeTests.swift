import Courier
import Testing

@Suite("ValidationType")
struct ValidationTypeTests {
    /// Moya's rule: a validation accepts the codes its `statusCodes` lists, and an empty list means
    /// no validation at all (Moya validates only when the list is not empty).
    private func moyaAccepts(_ validation: ValidationType, _ statusCode: Int) -> Bool {
        let codes: [Int] =
            switch validation {
            case .none: []
            case .successCodes: Array(200..<300)
            case .successAndRedirectCodes: Array(200..<400)
            case .customCodes(let codes): codes
            }
        return codes.isEmpty || codes.contains(statusCode)
    }

    @Test("every case against Moya's rule, for statuses 100 to 599")
    func moyaTable() {
        let cases: [ValidationType] = [
            .none, .successCodes, .successAndRedirectCodes, .customCodes([]), .customCodes([200]),
            .customCodes([201, 204, 304, 418]), .customCodes(Array(400..<500)),
        ]
        for validation in cases {
            for status in stride(from: 100, through: 599, by: 1) {
                #expect(validation.accepts(status) == moyaAccepts(validation, status), "\(validation) \(status)")
            }
        }
        #expect(ValidationType.customCodes([]).accepts(500))
        #expect(ValidationType.customCodes([]).statusCodes.isEmpty)
    }
}
