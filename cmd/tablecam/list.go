package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"tablecam/models"
	"tablecam/tracker"
)

func (a *app) listCmd() *cobra.Command {
	kinds := map[string]func(io.Writer, *tracker.Catalog, *models.Content){
		"scenarios": listScenarios,
		"enemies":   listEnemies,
		"factions":  listFactions,
		"cards":     listCards,
		"sets":      listSets,
		"games":     listGames,
	}
	for _, g := range tracker.Games()[1:] {
		kinds[g.ID] = func(w io.Writer, cat *tracker.Catalog, c *models.Content) { listGameIDs(w, cat, c, g.ID) }
	}
	return &cobra.Command{
		Use:   "list scenarios|enemies|factions|cards|sets|games|twom|warfare|wasteland",
		Short: "The ids to type: scenarios, enemies and their tokens, factions, activation cards, dice sets, games and their words",
		Long: `List the ids that commands and setup take, from the content pack, your content_dir
overrides and (for sets) the dice you taught. Entries marked * hold numbers the
source documents leave unconfirmed: override them in content_dir when your game
says otherwise.`,
		ValidArgs: []string{"scenarios", "enemies", "factions", "cards", "sets", "games", "twom", "warfare", "wasteland"},
		Args:      cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			list, ok := kinds[args[0]]
			if !ok {
				return fmt.Errorf("list %q: want scenarios, enemies, factions, cards, sets, games, twom, warfare or wasteland", args[0])
			}
			c, err := a.content()
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			list(tw, a.catalog(), c.Localized(a.cfg.Language))
			return tw.Flush()
		},
	}
}

// said is the catalog's text for a value of the kind prefix names (a set's
// kind, a game), or the value when there is none.
func said(cat *tracker.Catalog, prefix, value string) string {
	if cat.HasText(prefix + value) {
		return cat.T(prefix + value)
	}
	return value
}

func star(assumed bool) string {
	if assumed {
		return "*"
	}
	return ""
}

func listScenarios(w io.Writer, cat *tracker.Catalog, c *models.Content) {
	fmt.Fprint(w, cat.T("listScenarios"))
	for _, s := range c.Scenarios {
		var fs []string
		for _, f := range s.Factions {
			fs = append(fs, f.Faction)
		}
		fmt.Fprintf(w, "%s%s\t%s\t%s\t%d\t%d\n", s.ID, star(s.Assumed), s.Name, strings.Join(fs, ", "), s.PowerTrack, s.GoalsRequired)
	}
}

func listEnemies(w io.Writer, cat *tracker.Catalog, c *models.Content) {
	fmt.Fprint(w, cat.T("listEnemies"))
	for _, e := range c.EnemyTypes {
		var ts []string
		for _, t := range e.Tokens {
			d := fmt.Sprintf("%s (%d, %s", t.ID, t.Level, strings.Join(t.Vulnerable, "+"))
			if len(t.Abilities) > 0 {
				d += ", " + strings.Join(t.Abilities, "+")
			}
			ts = append(ts, d+")")
		}
		fmt.Fprintf(w, "%s%s\t%s\t%s\n", e.ID, star(e.Assumed), e.Name, strings.Join(ts, "; "))
	}
}

func listFactions(w io.Writer, cat *tracker.Catalog, c *models.Content) {
	fmt.Fprint(w, cat.T("listFactions"))
	for _, f := range c.Factions {
		fmt.Fprintf(w, "%s%s\t%s\t%s\n", f.ID, star(f.Assumed), f.Name, f.Enemy)
	}
}

func listCards(w io.Writer, cat *tracker.Catalog, c *models.Content) {
	fmt.Fprint(w, cat.T("listCards"))
	for _, a := range c.ActivationCards {
		fmt.Fprintf(w, "%s%s\t%s\t%s\n", a.ID, star(a.Assumed), cat.T("listCardTypes", a.Types[0], a.Types[1]), a.Icon)
	}
}

func listSets(w io.Writer, cat *tracker.Catalog, c *models.Content) {
	fmt.Fprint(w, cat.T("listSets"))
	for _, s := range c.FaceSets {
		var fs []string
		for _, f := range s.Faces {
			if f.Label != "" && f.Label != f.ID {
				fs = append(fs, f.ID+" ("+f.Label+")")
			} else {
				fs = append(fs, f.ID)
			}
		}
		fmt.Fprintf(w, "%s%s\t%s\t%s\n", s.ID, star(s.Assumed), said(cat, "kind.", s.Kind), strings.Join(fs, ", "))
	}
}

func listGames(w io.Writer, cat *tracker.Catalog, _ *models.Content) {
	fmt.Fprint(w, cat.T("listGames"))
	for _, g := range tracker.Games() {
		fmt.Fprintf(w, "%s\t%s\t%s\n", g.ID, said(cat, "game.", g.ID), g.Setup)
	}
}

func listGameIDs(w io.Writer, cat *tracker.Catalog, c *models.Content, game string) {
	fmt.Fprint(w, cat.T("listWords"))
	for _, l := range tracker.GameIDs(c, game) {
		fmt.Fprintf(w, "%s\t%s\n", said(cat, "ids.", l.What), strings.Join(l.IDs, ", "))
	}
}
