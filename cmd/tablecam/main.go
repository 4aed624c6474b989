// Command tablecam watches a board-game table, tracks the game and runs the
// enemy side out loud. This file only wires the packages together.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"tablecam/config"
	"tablecam/tracker"
	"tablecam/vision"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root, a := newRootApp()
	if err := root.ExecuteContext(ctx); err != nil {
		var ex exitError
		if errors.As(err, &ex) {
			os.Exit(int(ex))
		}
		fmt.Fprintln(os.Stderr, "tablecam:", a.errorText(root, err))
		os.Exit(1)
	}
}

// errorText says a command's error in the configured language. A command
// that failed before its configuration was read (a bad flag) reads the
// language here.
func (a *app) errorText(root *cobra.Command, err error) string {
	lang := a.cfg.Language
	if lang == "" {
		if cfg, _, cerr := config.Load(root.PersistentFlags(), a.cfgPath); cerr == nil {
			lang = cfg.Language
		}
	}
	cat, cerr := tracker.NewCatalog(lang)
	if cerr != nil {
		return err.Error()
	}
	return cat.Error(err)
}

// exitError exits with a code after the command printed its own errors.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// app is what every command gets: configuration and a logger.
type app struct {
	cfgPath string
	wavDir  string
	// sessionName is play --name: the name of the session played.
	sessionName string
	cfg         config.Config
	log         *slog.Logger
	// notice tells the user something in a sentence on standard error.
	notice func(string)
}

func newRoot() *cobra.Command {
	root, _ := newRootApp()
	return root
}

// newRootApp returns the command tree and the app its commands share.
func newRootApp() (*cobra.Command, *app) {
	a := &app{}
	root := &cobra.Command{
		Use:           "tablecam",
		Short:         "A table assistant for Fallout: The Board Game (co-op): reads dice and cards, tracks the game, runs the enemies",
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			cfg, src, err := config.Load(cmd.Flags(), a.cfgPath)
			if err != nil {
				return fmt.Errorf("configuration (%s): %w", src, err)
			}
			a.cfg = cfg
			a.log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.Log.SlogLevel()}))
			errw := cmd.ErrOrStderr()
			a.notice = func(s string) { fmt.Fprintln(errw, sayLines(a.catalog(), s)) }
			vision.SetOpenCVThreads(cfg.Vision.OpenCVThreads) // process-wide: set once, here
			return nil
		},
	}
	root.PersistentFlags().StringVar(&a.cfgPath, "config", "", "config file (default ./config.yaml, then $XDG_CONFIG_HOME/tablecam/config.yaml)")
	config.RegisterFlags(root.PersistentFlags(), "language", "data_dir", "log")
	// Each command offers the settings it uses as flags; all of them can
	// be set in the config file or as TABLECAM_* variables.
	game := []string{"content_dir", "rules", "session", "voice"}
	for _, c := range []struct {
		cmd      *cobra.Command
		sections []string
	}{
		{a.playCmd(), append(game, "camera", "vision", "dashboard")},
		{a.replayCmd(), game},
		{a.stateCmd(), game},
		{a.oddsCmd(), []string{"content_dir", "rules"}},
		{a.sessionsCmd(), []string{"session"}},
		{a.stickersCmd(), []string{"vision"}},
		{a.diceCmd(), []string{"content_dir", "vision"}},
		{a.cardCmd(), []string{"content_dir", "vision"}},
		{a.learnCmd(), []string{"content_dir", "vision"}},
		{a.benchCmd(), append(game, "camera", "vision")},
		{a.listCmd(), []string{"content_dir"}},
	} {
		config.RegisterFlags(c.cmd.PersistentFlags(), c.sections...)
		root.AddCommand(c.cmd)
	}
	a.helpInLanguage(root)
	return root, a
}
