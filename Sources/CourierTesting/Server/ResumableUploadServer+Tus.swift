import Courier
import Foundation

/// tus 1.0.0 (its core, `creation` and `termination`), for a server made with
/// `ResumableUploadServer(speaking: .tus)`.
extension ResumableUploadServer {
    /// The answer to a request of tus: discovery, creation, offset, append, termination.
    static func tusReply(to request: ServerRequest, _ state: inout State) -> ServerReply {
        var fields = ["Tus-Resumable": "1.0.0"]
        if request.method == "OPTIONS" {
            fields["Tus-Version"] = "1.0.0"
            fields["Tus-Extension"] = "creation,termination"
            if let size = state.maximumSize { fields["Tus-Max-Size"] = String(size) }
            return ServerReply(status: 204, headers: fields)
        }
        guard request.header("Tus-Resumable") == "1.0.0" else {
            return ServerReply(status: 412, headers: ["Tus-Version": "1.0.0"])
        }
        guard request.path.hasPrefix("/uploads/"), let id = Int(request.path.dropFirst(9)) else {
            return tusCreate(request, &state, fields)
        }
        guard let upload = state.uploads[id] else { return ServerReply(status: 404, headers: fields) }
        switch request.method {
        case "HEAD":
            fields["Upload-Offset"] = String(upload.body.count)
            fields["Upload-Length"] = upload.length.map(String.init)
            fields["Cache-Control"] = "no-store"
            return ServerReply(status: 200, headers: fields)
        case "PATCH": return tusAppend(request, to: id, &state, fields)
        case "DELETE":
            state.uploads[id] = nil
            return ServerReply(status: 204, headers: fields)
        default: return ServerReply(status: 405, headers: fields)
        }
    }

    private static func tusCreate(_ request: ServerRequest, _ state: inout State, _ fields: [String: String])
        -> ServerReply
    {
        guard request.method == "POST", let length = request.header("Upload-Length").flatMap({ Int64($0) }) else {
            return ServerReply(status: 400, headers: fields)
        }
        if let size = state.maximumSize, length > size { return ServerReply(status: 413, headers: fields) }
        let id = state.next
        state.next += 1
        state.uploads[id] = Upload(body: Data(), complete: length == 0, length: length)
        var created = fields
        created["Location"] = "/uploads/\(id)"
        return ServerReply(status: 201, headers: created)
    }

    private static func tusAppend(
        _ request: ServerRequest, to id: Int, _ state: inout State, _ fields: [String: String]
    ) -> ServerReply {
        guard var upload = state.uploads[id] else { return ServerReply(status: 404, headers: fields) }
        guard request.header("Content-Type") == "application/offset+octet-stream" else {
            return ServerReply(status: 415, headers: fields)
        }
        guard request.header("Upload-Offset") == String(upload.body.count), !upload.complete else {
            return ServerReply(status: 409, headers: fields)
        }
        if let cut = cut(request, into: id, &state) { return cut(fields) }
        upload.body.append(request.body)
        state.appended += Int64(request.body.count)
        upload.complete = Int64(upload.body.count) == upload.length
        state.uploads[id] = upload
        if upload.complete { state.completed.append(upload.body) }
        var answer = fields
        answer["Upload-Offset"] = String(upload.body.count)
        return ServerReply(status: 204, headers: answer)
    }
}
