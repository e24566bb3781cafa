# Schemathesis hooks for scripts/contract-test.sh: the batch route's body (application/x-ndjson) is
# text, serialised as text/plain bodies are.
import schemathesis

schemathesis.serializer.alias("application/x-ndjson", "text/plain")
