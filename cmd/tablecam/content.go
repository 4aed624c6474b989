package main

import (
	"fmt"

	"tablecam/models"
	"tablecam/vision"
)

// content is the content pack with the user's overrides and the dice sets
// the group taught under names of their own, so that rolls of those sets
// are accepted and announced like the pack's.
func (a *app) content() (*models.Content, error) {
	c, err := a.packContent()
	if err != nil {
		return nil, err
	}
	sets, bad := vision.TaughtFaceSets(a.cfg.DataDir)
	for _, err := range bad {
		a.log.Warn("a taught dice set is left out", "err", err)
	}
	for _, fs := range sets {
		if err := c.AddTaughtSet(fs); err != nil {
			return nil, fmt.Errorf("taught dice set %q (%s): %w", fs.ID, vision.ProfileDir(a.cfg.DataDir, fs.ID), err)
		}
	}
	return c, nil
}

// packContent is the content pack with the user's overrides only: teaching
// decides from it whether a set is the pack's or a new one.
func (a *app) packContent() (*models.Content, error) {
	c, err := models.LoadContent(a.cfg.ContentDir)
	if err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	if a.cfg.Rules.DeckEmpty != "" {
		c.Rules.DeckEmpty = a.cfg.Rules.DeckEmpty
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("config rules.deck_empty: %w", err)
		}
	}
	return c, nil
}
