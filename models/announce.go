package models

// Announcement is one thing tablecam says: a typed value with a spoken-language
// sentence and structured data for the dashboard and JSON output.
type Announcement struct {
	// Seq is the event sequence number the announcement belongs to (0: none).
	Seq int64 `json:"seq"`
	// Kind is a stable machine-readable kind, e.g. "test.result", "activation.enemy".
	Kind string `json:"kind"`
	// Text is the sentence in the session's language.
	Text string `json:"text"`
	// Lang is the language of Text ("en", "de").
	Lang string `json:"lang"`
	// Data carries the values the sentence was built from.
	Data map[string]any `json:"data,omitempty"`
}
