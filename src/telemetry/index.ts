// `qilin-tools/opentelemetry`: spans for tool calls. The only entry that loads `@opentelemetry/api` (an optional
// peer): a host that never instruments never imports it.

export { EXECUTE_TOOL, GenAiAttribute, ToolSpanEvent, ToolSpanEventAttribute } from './gen-ai-attributes.js'
export {
  CONTENT_ATTRIBUTE_LIMIT,
  instrumentOpenTelemetry,
  type OpenTelemetryOptions,
} from './instrument-open-telemetry.js'
