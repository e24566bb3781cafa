import Foundation
import MathAloud

/// `GET /openapi.json`: the API described in OpenAPI 3.1 (JSON Schema 2020-12) — every route, body,
/// response and error. The contract test (Tests/MathAloudServerTests, schemathesis) checks the server's
/// answers against it.
enum OpenAPIDocument {
    /// The document for the rules in force: `locale` and `style` list the locales and styles loaded
    /// (a rules directory can add some). Made once per load of the rules.
    static func json(locales: [String], styles: [String]) -> String {
        func list(_ names: [String], null: Bool) -> String {
            JSONValue.array(names.map { .string($0) } + (null ? [.null] : [])).jsonText
        }
        let text = source.replacingOccurrences(of: "\"__LOCALES__\"", with: list(locales, null: true))
            .replacingOccurrences(of: "\"__STYLES__\"", with: list(styles, null: true))
            .replacingOccurrences(of: "\"__LOCALE_NAMES__\"", with: list(locales, null: false))
        // Parsed and re-encoded, so the served text is compact and certainly valid JSON.
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            preconditionFailure("the OpenAPI document is not valid JSON")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static let source = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "MathAloud",
        "version": "1.0.0",
        "description": "Speech, labels, audio and images for mathematics (TeX and MathML). Errors are {\"error\": {\"code\", \"message\", \"diagnostics\"}}; every response carries X-Request-Id.",
        "license": {"name": "See the repository", "identifier": "MIT"}
      },
      "servers": [{"url": "http://127.0.0.1:8080"}],
      "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "Only when the server runs with --api-keys."}},
        "headers": {
          "RequestId": {"description": "The request id (the client's X-Request-Id when usable).", "schema": {"type": "string"}},
          "RetryAfter": {"description": "Seconds to wait before retrying.", "schema": {"type": "string", "pattern": "^[0-9]+$"}},
          "Diagnostics": {"description": "The formula's diagnostics (an unknown command, a missing glyph, an unknown preference…) as the JSON array of the speech routes' diagnostics field, percent-encoded UTF-8 (bytes outside printable ASCII, and %); [] when there are none. Whole diagnostics in order while they fit 6,144 bytes.", "schema": {"type": "string"}},
          "ContentLanguage": {"description": "The language of the answer: the request's locale (the server's default when it names none) as a BCP 47 tag in its conventional case (en, de, zh-TW), the tag SSML's xml:lang and SVG's lang carry. Error answers carry none: their messages are in English whatever the locale.", "schema": {"type": "string"}},
          "BatchContentLanguage": {"description": "The languages of the lines answered with speech, each once in the order of first use (en, de): a list is content for readers of each language (RFC 9110 section 8.5); each line's own is its request's locale. None when no line was answered with speech, or when the lines speak more than 32 (a part of the list would be wrong). Error lines, in English, add none.", "schema": {"type": "string"}},
          "DiagnosticsCount": {"description": "How many diagnostics the formula has (more than X-Diagnostics holds when they did not fit).", "schema": {"type": "string", "pattern": "^[0-9]+$"}}
        },
        "schemas": {
          "Id": {"description": "Any JSON value; echoed in the answer (null when absent)."},
          "FormulaRequest": {
            "type": "object",
            "properties": {
              "id": {"$ref": "#/components/schemas/Id"},
              "tex": {"type": "string", "description": "TeX math without $ delimiters."},
              "mathml": {"type": "string", "description": "MathML (<math>…</math> or a fragment)."},
              "text": {"type": "string", "description": "Prose with inline math ($…$, \\(…\\), \\[…\\]): speech, labels and audio read it; parse and render need one formula."},
              "display": {"type": ["boolean", "null"], "description": "Display math."},
              "voice": {"type": ["string", "null"], "description": "An eSpeak-NG voice instead of the locale's (audio; an unknown one is a 400)."},
              "locale": {"enum": "__LOCALES__", "description": "A locale with rules (GET /v1/locales); default en."},
              "style": {"enum": "__STYLES__", "description": "A style of the locale (GET /v1/styles); default clearspeak."},
              "preferences": {"type": ["object", "null"], "additionalProperties": {"type": "string"}, "description": "Style preferences by name (GET /v1/styles); an unknown name or value is answered with a warning diagnostic (speech.unknown-preference), not refused."},
              "format": {"type": ["string", "null"]},
              "template": {"type": ["string", "null"], "description": "A label template: {speech} and {latex} are replaced."},
              "strict": {"type": ["boolean", "null"], "description": "Answer 422 when the formula has errors."}
            },
            "oneOf": [{"required": ["tex"]}, {"required": ["mathml"]}, {"required": ["text"]}]
          },
          "SpeechRequest": {
            "allOf": [{"$ref": "#/components/schemas/FormulaRequest"}],
            "properties": {"format": {"enum": ["text", "ssml", null], "description": "ssml adds the ssml field; default text."}}
          },
          "ParseRequest": {
            "allOf": [{"$ref": "#/components/schemas/FormulaRequest"}],
            "properties": {"format": {"enum": ["mathml", "json", "tree", null], "description": "mathml (default), json (the tree as a JSON object) or tree (the indented dump of mathaloud parse)."}}
          },
          "AudioRequest": {
            "allOf": [{"$ref": "#/components/schemas/FormulaRequest"}],
            "properties": {
              "rate": {"type": ["number", "null"], "minimum": 80, "maximum": 450},
              "pitch": {"type": ["number", "null"], "minimum": 0, "maximum": 100},
              "pauseScale": {"type": ["number", "null"], "minimum": 0, "maximum": 10}
            }
          },
          "RenderRequest": {
            "allOf": [{"$ref": "#/components/schemas/FormulaRequest"}],
            "properties": {
              "format": {"enum": ["svg", "png", "pdf", null], "description": "Instead of the Accept header; default svg."},
              "font": {"enum": ["latin-modern", "pagella", "termes", "bonum", "schola", "dejavu", null]},
              "size": {"type": ["number", "null"], "minimum": 4, "maximum": 200},
              "scale": {"type": ["number", "null"], "minimum": 0.25, "maximum": 8},
              "color": {"type": ["string", "null"], "description": "A colour name, #rgb or #rrggbb (else a 400)."},
              "background": {"type": ["string", "null"]},
              "idPrefix": {"type": ["string", "null"], "pattern": "^[A-Za-z0-9._-]{1,64}$", "description": "SVG: the prefix of the image's element ids (else a 400); default ma and a hash of the source, label, language and font."}
            }
          },
          "Range": {
            "type": "object",
            "required": ["start", "end", "line", "column"],
            "properties": {"start": {"type": "integer"}, "end": {"type": "integer"}, "line": {"type": "integer"}, "column": {"type": "integer"}}
          },
          "Diagnostic": {
            "type": "object",
            "required": ["id", "severity", "message"],
            "properties": {
              "id": {"type": "string", "description": "Stable id (tex.unknown-command, limit.time…)."},
              "severity": {"enum": ["error", "warning", "note"]},
              "message": {"type": "string"},
              "range": {"$ref": "#/components/schemas/Range"},
              "notes": {"type": "array", "items": {"type": "object", "required": ["message"], "properties": {"message": {"type": "string"}, "range": {"$ref": "#/components/schemas/Range"}}}},
              "fixIts": {"type": "array", "items": {"type": "object", "required": ["range", "replacement"], "properties": {"range": {"$ref": "#/components/schemas/Range"}, "replacement": {"type": "string"}}}}
            }
          },
          "Diagnostics": {"type": "array", "items": {"$ref": "#/components/schemas/Diagnostic"}},
          "SpeechResponse": {
            "type": "object",
            "required": ["id", "speech", "diagnostics"],
            "properties": {
              "id": {"$ref": "#/components/schemas/Id"},
              "speech": {"type": "string"},
              "ssml": {"type": "string"},
              "label": {"type": "string"},
              "diagnostics": {"$ref": "#/components/schemas/Diagnostics"}
            },
            "additionalProperties": false
          },
          "LabelResponse": {
            "description": "The speech response with its label (the template defaults to {speech}).",
            "allOf": [{"$ref": "#/components/schemas/SpeechResponse"}],
            "required": ["label"]
          },
          "ParseResponse": {
            "type": "object",
            "required": ["id", "diagnostics"],
            "properties": {
              "id": {"$ref": "#/components/schemas/Id"},
              "mathml": {"type": "string"},
              "tree": {"type": ["object", "string"], "description": "The presentation tree: an object for format json, the indented dump for tree."},
              "diagnostics": {"$ref": "#/components/schemas/Diagnostics"}
            },
            "additionalProperties": false
          },
          "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {
              "error": {
                "type": "object",
                "required": ["code", "message", "diagnostics"],
                "properties": {
                  "code": {"enum": ["bad-json", "bad-field", "bad-encoding", "unauthorized", "not-found", "method-not-allowed", "not-acceptable", "too-large", "unsupported-media-type", "input-errors", "rate-limited", "timeout", "internal", "unavailable", "draining", "overloaded"]},
                  "message": {"type": "string"},
                  "diagnostics": {"$ref": "#/components/schemas/Diagnostics"}
                },
                "additionalProperties": false
              }
            },
            "additionalProperties": false
          },
          "BatchLineOut": {
            "description": "One output line of /v1/speech:batch: a speech answer or {id, error}.",
            "oneOf": [
              {"type": "object", "required": ["id", "speech", "diagnostics"]},
              {"type": "object", "required": ["id", "error"], "properties": {"error": {"type": "string"}}}
            ]
          }
        },
        "responses": {
          "BadRequest": {"description": "Bad JSON, a bad field, or a body that is not UTF-8.", "headers": {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "Unauthorized": {"description": "A key is required (--api-keys) and none valid was sent.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "MethodNotAllowed": {"description": "Another method is needed (see Allow).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "TooLarge": {"description": "The body or formula is larger than the limit.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "UnsupportedMediaType": {"description": "Wrong Content-Type.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "Unprocessable": {"description": "The formula has errors and strict mode was asked for (input-errors), or it took longer than the time limit (timeout).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "RateLimited": {"description": "Over the rate limit (see Retry-After).", "headers": {"Retry-After": {"$ref": "#/components/headers/RetryAfter"}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "Unavailable": {"description": "Draining before shutdown, overloaded, or a part (voice, fonts) missing on this server.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        }
      },
      "security": [{}, {"bearer": []}],
      "paths": {
        "/v1/speech": {
          "post": {
            "summary": "Speech for a formula (text, SSML, a label)",
            "operationId": "speech",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SpeechRequest"}, "example": {"id": 1, "tex": "\\frac{3}{4}+x^2"}}}},
            "responses": {
              "200": {"description": "The speech.", "headers": {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}, "Content-Language": {"$ref": "#/components/headers/ContentLanguage"}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SpeechResponse"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
              "405": {"$ref": "#/components/responses/MethodNotAllowed"}, "413": {"$ref": "#/components/responses/TooLarge"},
              "415": {"$ref": "#/components/responses/UnsupportedMediaType"}, "422": {"$ref": "#/components/responses/Unprocessable"},
              "429": {"$ref": "#/components/responses/RateLimited"}, "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/v1/labels": {
          "post": {
            "summary": "A label from a template ({speech}, {latex}; default {speech})",
            "operationId": "labels",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/FormulaRequest"}, "example": {"tex": "x^2", "template": "Math: {speech}"}}}},
            "responses": {
              "200": {"description": "The label.", "headers": {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}, "Content-Language": {"$ref": "#/components/headers/ContentLanguage"}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/LabelResponse"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
              "405": {"$ref": "#/components/responses/MethodNotAllowed"}, "413": {"$ref": "#/components/responses/TooLarge"},
              "415": {"$ref": "#/components/responses/UnsupportedMediaType"}, "422": {"$ref": "#/components/responses/Unprocessable"},
              "429": {"$ref": "#/components/responses/RateLimited"}, "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/v1/parse": {
          "post": {
            "summary": "The presentation tree as MathML or JSON",
            "operationId": "parse",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ParseRequest"}, "example": {"tex": "\\sqrt[3]{x}", "format": "mathml"}}}},
            "responses": {
              "200": {"description": "The tree.", "headers": {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ParseResponse"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
              "405": {"$ref": "#/components/responses/MethodNotAllowed"}, "413": {"$ref": "#/components/responses/TooLarge"},
              "415": {"$ref": "#/components/responses/UnsupportedMediaType"}, "422": {"$ref": "#/components/responses/Unprocessable"},
              "429": {"$ref": "#/components/responses/RateLimited"}, "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/v1/audio": {
          "post": {
            "summary": "The speech voiced by eSpeak-NG as a WAV file (16-bit PCM mono); X-Speech has the text, percent-encoded, and X-Diagnostics the formula's diagnostics",
            "operationId": "audio",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AudioRequest"}, "example": {"tex": "\\frac{1}{2}"}}}},
            "responses": {
              "200": {"description": "The audio.", "headers": {"Content-Language": {"$ref": "#/components/headers/ContentLanguage"}, "X-Speech": {"description": "The speech, percent-encoded UTF-8.", "schema": {"type": "string"}}, "X-Diagnostics": {"$ref": "#/components/headers/Diagnostics"}, "X-Diagnostics-Count": {"$ref": "#/components/headers/DiagnosticsCount"}}, "content": {"audio/wav": {"schema": {"type": "string", "contentMediaType": "audio/wav"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
              "405": {"$ref": "#/components/responses/MethodNotAllowed"}, "413": {"$ref": "#/components/responses/TooLarge"},
              "415": {"$ref": "#/components/responses/UnsupportedMediaType"}, "422": {"$ref": "#/components/responses/Unprocessable"},
              "429": {"$ref": "#/components/responses/RateLimited"}, "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/v1/render": {
          "post": {
            "summary": "The formula typeset as SVG, PNG or PDF with the spoken label inside (format field, else Accept)",
            "operationId": "render",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RenderRequest"}, "example": {"tex": "\\sqrt{x^2+1}", "format": "svg"}}}},
            "responses": {
              "200": {"description": "The image; X-Label has the label, percent-encoded, and X-Diagnostics the formula's diagnostics.", "headers": {"X-Label": {"description": "The label, percent-encoded UTF-8.", "schema": {"type": "string"}}, "Content-Language": {"$ref": "#/components/headers/ContentLanguage"}, "X-Diagnostics": {"$ref": "#/components/headers/Diagnostics"}, "X-Diagnostics-Count": {"$ref": "#/components/headers/DiagnosticsCount"}},
                      "content": {"image/svg+xml": {"schema": {"type": "string"}}, "image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}}, "application/pdf": {"schema": {"type": "string", "contentMediaType": "application/pdf"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
              "405": {"$ref": "#/components/responses/MethodNotAllowed"},
              "406": {"description": "The Accept header allows none of SVG, PNG, PDF.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "415": {"$ref": "#/components/responses/UnsupportedMediaType"}, "422": {"$ref": "#/components/responses/Unprocessable"},
              "429": {"$ref": "#/components/responses/RateLimited"}, "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/v1/speech:batch": {
          "post": {
            "summary": "JSON Lines in, JSON Lines out: one line per input line, in order (the contract of mathaloud speak --batch); no limit on lines, flat memory",
            "operationId": "speechBatch",
            "requestBody": {"required": true, "content": {"application/x-ndjson": {"schema": {"type": "string", "description": "Lines {\"id\", \"tex\"|\"mathml\", \"locale\"?, \"style\"?, \"preferences\"?}."}, "example": "{\"id\": 1, \"tex\": \"x^2\"}\n"}}},
            "responses": {
              "200": {"description": "One line per non-blank input line.", "headers": {"Content-Language": {"$ref": "#/components/headers/BatchContentLanguage"}}, "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
              "405": {"$ref": "#/components/responses/MethodNotAllowed"},
              "415": {"$ref": "#/components/responses/UnsupportedMediaType"},
              "429": {"$ref": "#/components/responses/RateLimited"}, "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/v1/locales": {
          "get": {
            "summary": "Locales with rules and their styles",
            "operationId": "locales",
            "responses": {
              "200": {"description": "The locales.", "content": {"application/json": {"schema": {"type": "object", "required": ["locales"], "properties": {"locales": {"type": "array", "items": {"type": "object", "required": ["locale", "styles"], "properties": {"locale": {"type": "string"}, "styles": {"type": "array", "items": {"type": "string"}}}}}}}}}},
              "401": {"$ref": "#/components/responses/Unauthorized"}, "405": {"$ref": "#/components/responses/MethodNotAllowed"},
              "429": {"$ref": "#/components/responses/RateLimited"}, "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/v1/styles": {
          "get": {
            "summary": "Each style with its preferences and their values (the first value is the default)",
            "operationId": "styles",
            "parameters": [{"name": "locale", "in": "query", "required": false, "schema": {"enum": "__LOCALE_NAMES__"}, "description": "Only this locale's styles (an unknown one is a 400)."}],
            "responses": {
              "200": {"description": "The styles.", "content": {"application/json": {"schema": {"type": "object", "required": ["styles"], "properties": {"styles": {"type": "array", "items": {"type": "object", "required": ["locale", "style", "preferences"], "properties": {"locale": {"type": "string"}, "style": {"type": "string"}, "preferences": {"type": "array", "items": {"type": "object", "required": ["name", "values", "default", "aliases"], "properties": {"name": {"type": "string"}, "values": {"type": "array", "items": {"type": "string"}}, "default": {"type": "string"}, "aliases": {"type": "array", "items": {"type": "string"}}}}}}}}}}}}},
              "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
              "405": {"$ref": "#/components/responses/MethodNotAllowed"},
              "429": {"$ref": "#/components/responses/RateLimited"}, "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/openapi.json": {
          "get": {
            "summary": "This document",
            "operationId": "openapi",
            "responses": {"200": {"description": "OpenAPI 3.1.", "content": {"application/json": {"schema": {"type": "object"}}}},
                          "401": {"$ref": "#/components/responses/Unauthorized"}, "405": {"$ref": "#/components/responses/MethodNotAllowed"},
                          "429": {"$ref": "#/components/responses/RateLimited"}, "503": {"$ref": "#/components/responses/Unavailable"}}
          }
        },
        "/healthz": {
          "get": {
            "summary": "Liveness: 200 while the process answers (also while draining)",
            "operationId": "healthz",
            "security": [{}],
            "responses": {"200": {"description": "Alive.", "content": {"application/json": {"schema": {"type": "object", "required": ["status"], "properties": {"status": {"const": "ok"}}}}}},
                          "405": {"$ref": "#/components/responses/MethodNotAllowed"}}
          }
        },
        "/readyz": {
          "get": {
            "summary": "Readiness: 200 when rules are loaded and the server is not draining, else 503",
            "operationId": "readyz",
            "security": [{}],
            "responses": {"200": {"description": "Ready.", "content": {"application/json": {"schema": {"type": "object", "required": ["status"], "properties": {"status": {"const": "ready"}}}}}},
                          "405": {"$ref": "#/components/responses/MethodNotAllowed"}, "503": {"$ref": "#/components/responses/Unavailable"}}
          }
        },
        "/metrics": {
          "get": {
            "summary": "Prometheus text: requests by route and status, latency histograms, in flight, connections, cache hits",
            "operationId": "metrics",
            "responses": {"200": {"description": "Metrics.", "content": {"text/plain": {"schema": {"type": "string"}}}},
                          "401": {"$ref": "#/components/responses/Unauthorized"}, "405": {"$ref": "#/components/responses/MethodNotAllowed"}}
          }
        }
      }
    }
    """#
}
