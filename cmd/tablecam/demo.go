package main

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"

	"tablecam/models"
)

//go:embed demo.events
var demoEvents []byte

// runDemo replays the bundled demo game through a fresh tracker session and
// announces it (console and, when enabled, voice).
func (a *app) runDemo(ctx context.Context, c *models.Content, w io.Writer, jsonOut bool, voice string) error {
	out, _, err := a.outputs(ctx, w, jsonOut, voice)
	if err != nil {
		return err
	}
	defer out.Close()
	bad, err := a.replayEvents(ctx, c, "demo.events", bytes.NewReader(demoEvents), out, w)
	if err != nil {
		return err
	}
	if bad > 0 {
		return fmt.Errorf("the bundled demo has %d invalid events", bad)
	}
	return nil
}
