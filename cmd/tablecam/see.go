package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"gocv.io/x/gocv"

	"tablecam/config"
	"tablecam/frame"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/card"
	"tablecam/vision/card/index"
	"tablecam/vision/defaults"
)

// cardsDir is where taught cards live under the data directory.
func cardsDir(dataDir string) string { return filepath.Join(dataDir, "profiles", "cards") }

// diceDetector builds the dice detector for sets (default: the config's),
// with taught profiles over the built-in ones.
func (a *app) diceDetector(c *models.Content, sets []string, errw io.Writer) (*vision.DiceDetector, error) {
	if len(sets) == 0 {
		sets = a.cfg.Vision.Sets()
	}
	cat := a.catalog()
	profs, _, err := defaults.Load(c, a.cfg.DataDir, sets, func(s string) { fmt.Fprintln(errw, cat.Error(errors.New(s))) })
	if err != nil {
		return nil, err
	}
	return vision.NewDiceDetector(c, profs, vision.DiceConfig{Sets: sets})
}

// cardReader builds the card reader: stickers through the marker map, and
// the taught cards when there are any. wholeFrame also searches the whole
// picture for taught cards whose outline was missed (single pictures: it
// costs several times a plain reading).
func (a *app) cardReader(wholeFrame bool) (*card.Reader, error) {
	m, err := a.markerMap(a.cfg.Vision.Markers)
	if err != nil {
		return nil, err
	}
	opts := card.Options{Markers: m, SearchWholeFrame: wholeFrame}
	dir := cardsDir(a.cfg.DataDir)
	if _, err := os.Stat(dir); err == nil {
		ix, err := index.Load(dir)
		var damaged *index.DamagedError
		switch {
		case errors.As(err, &damaged) && ix != nil:
			// The cards that lost entries are named; the others read.
			a.log.Warn("taught cards: some could not be read", "err", err)
		case err != nil:
			return nil, fmt.Errorf("taught cards: %w", err)
		}
		opts.Index = ix
	}
	return card.NewReader(opts)
}

// sayLines says the lines of a progress report in the catalog's language,
// each as the catalog says an error (a line it does not know stays as it
// is).
func sayLines(cat *tracker.Catalog, s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = cat.Error(errors.New(l))
	}
	return strings.Join(lines, "\n")
}

// picturesFailed is the text key that says how many pictures could not be
// read: German puts the verb in the singular for one.
func picturesFailed(n int) string {
	if n == 1 {
		return "picturesFailed1"
	}
	return "picturesFailedN"
}

type diceResult struct {
	Image string       `json:"image"`
	Dice  []vision.Die `json:"dice"`
	Error string       `json:"error,omitempty"`
}

type cardResult struct {
	Image string         `json:"image"`
	Cards []card.Reading `json:"cards"`
	Error string         `json:"error,omitempty"`
}

// diceReaders are the readers `tablecam dice --reader` offers.
func diceReaders() []string { return []string{"tuned", "learned"} }

func (a *app) diceCmd() *cobra.Command {
	var sets, background, reader string
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "dice [--set NAME[,NAME...]] [--json] IMAGE...",
		Short: "Read the dice in pictures (one JSON object per picture with --json)",
		Long: `Read the dice in pictures. --set picks the face sets to look for (default: the
config's vision.dice_sets); taught sets (tablecam learn dice) are used over the
built-in ones. --background names a picture of the same table without dice, which
makes finding the dice more reliable. Dice read with low confidence are marked
uncertain. A picture that cannot be read is reported and the command exits 1
after the others.

--reader learned reads with the learned models built into the program (a die
finder and a face reader trained on real photos): without --set it reads d6
pips, and on real cameras it finds and reads far more pip dice than the tuned
reader; with --set it reads the sets taught to it (tablecam learn dice
--reader learned). --background does not apply to it.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			which, err := a.diceReader(reader)
			if err != nil {
				return err
			}
			c, err := a.content()
			if err != nil {
				return err
			}
			if which == "learned" {
				lr, err := a.newLearnedReader(c, config.Vision{DiceSets: sets}.Sets())
				if err != nil {
					return err
				}
				defer lr.Close()
				return a.readDicePictures(cmd, args, jsonOut, lr.read)
			}
			det, err := a.diceDetector(c, config.Vision{DiceSets: sets}.Sets(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer det.Close()
			if background != "" {
				bg, err := frame.ReadImage(background)
				if err != nil {
					return fmt.Errorf("--background: %w", err)
				}
				err = det.SetBackground(bg)
				bg.Close()
				if err != nil {
					return fmt.Errorf("--background: %w", err)
				}
			}
			return a.readDicePictures(cmd, args, jsonOut, func(img gocv.Mat) ([]vision.Die, error) {
				r, err := det.Read(img)
				return r.Dice, err
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&reader, "reader", "", "the dice reader: tuned (every set, taught sets) or learned (d6 pips on real cameras, and the sets taught to it); default: vision.dice_reader")
	f.StringVar(&sets, "set", "", "face sets to look for, comma-separated (default: vision.dice_sets)")
	f.BoolVar(&jsonOut, "json", false, "one JSON object per picture and line")
	f.StringVar(&background, "background", "", "a picture of the empty table (same camera and place)")
	return cmd
}

// diceReader is the reader a --reader flag names, or with none the
// configured vision.dice_reader.
func (a *app) diceReader(flag string) (string, error) {
	if flag == "" {
		flag = a.cfg.Vision.DiceReader
	}
	if !slices.Contains(diceReaders(), flag) {
		return "", fmt.Errorf("--reader: want one of %s, got %q", strings.Join(diceReaders(), ", "), flag)
	}
	return flag, nil
}

// readDicePictures reads each picture with read and reports it; a picture
// that cannot be read is reported and the command exits 1 after the others.
func (a *app) readDicePictures(cmd *cobra.Command, paths []string, jsonOut bool, read func(gocv.Mat) ([]vision.Die, error)) error {
	out, cat := cmd.OutOrStdout(), a.catalog()
	enc := json.NewEncoder(out)
	failed := 0
	for _, path := range paths {
		res := diceResult{Image: path, Dice: []vision.Die{}}
		img, err := frame.ReadImage(path)
		if err == nil {
			var ds []vision.Die
			ds, err = read(img)
			img.Close()
			if ds != nil {
				res.Dice = ds
			}
		}
		if err != nil {
			failed++
			res.Error = err.Error()
		}
		if jsonOut {
			if err := enc.Encode(res); err != nil {
				return err
			}
			continue
		}
		printDice(out, cat, res)
	}
	if failed > 0 {
		fmt.Fprint(cmd.ErrOrStderr(), cat.T(picturesFailed(failed), "dice", failed, len(paths)))
		return exitError(1)
	}
	return nil
}

// printDice writes the dice read in a picture as a table, in the
// catalog's language.
func printDice(w io.Writer, cat *tracker.Catalog, res diceResult) {
	fmt.Fprintf(w, "%s:", res.Image)
	if res.Error != "" {
		fmt.Fprint(w, cat.T("pictureError", cat.Error(errors.New(res.Error))))
		return
	}
	if len(res.Dice) == 0 {
		fmt.Fprint(w, cat.T("noDice"))
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprint(tw, cat.T("diceHeader"))
	for _, d := range res.Dice {
		val, hits := "", ""
		if d.Value != 0 {
			val = fmt.Sprint(d.Value)
		} else {
			hits = fmt.Sprint(d.Hits)
		}
		note := ""
		if d.Uncertain {
			note = cat.T("dieUncertain")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%d,%d-%d,%d\t%.2f\t%s\n", d.Set, d.Face, val, hits, strings.Join(d.Regions, "+"),
			d.Box.Min.X, d.Box.Min.Y, d.Box.Max.X, d.Box.Max.Y, d.Confidence, note)
	}
	tw.Flush()
}

func (a *app) cardCmd() *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "card [--json] IMAGE...",
		Short: "Identify the cards and tokens in pictures (ID stickers and taught cards)",
		Long: `Identify the cards in pictures: cards with an ID sticker by its marker (through
the marker map, see tablecam stickers), other cards against the taught cards
(tablecam learn cards). A card that was never taught is reported as "unknown".
Dice (the sets of vision.dice_sets) are looked for too: an outline that is a
die is not reported as a card. Each picture is also searched as a whole for
taught cards whose outline was not found (busy tables), which takes several
times longer than a live frame.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.content()
			if err != nil {
				return err
			}
			det, err := a.diceDetector(c, nil, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer det.Close()
			r, err := a.cardReader(true)
			if err != nil {
				return err
			}
			defer r.Close()
			out, cat := cmd.OutOrStdout(), a.catalog()
			enc := json.NewEncoder(out)
			failed := 0
			for _, path := range args {
				res := cardResult{Image: path, Cards: []card.Reading{}}
				img, err := frame.ReadImage(path)
				if err == nil {
					var cs []card.Reading
					cs, err = r.ReadCards(img)
					if err == nil {
						var dice vision.Reading
						dice, err = det.Read(img)
						cs = withoutDice(cs, dice.Dice)
					}
					img.Close()
					if cs != nil {
						res.Cards = cs
					}
				}
				if err != nil {
					failed++
					res.Error = err.Error()
				}
				if jsonOut {
					if err := enc.Encode(res); err != nil {
						return err
					}
					continue
				}
				printCards(out, cat, res)
			}
			if failed > 0 {
				fmt.Fprint(cmd.ErrOrStderr(), cat.T(picturesFailed(failed), "card", failed, len(args)))
				return exitError(1)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "one JSON object per picture and line")
	return cmd
}

// withoutDice drops the "unknown" cards that are dice: an outline mostly
// covered by a die's box. A die's square outline passes for a card's, and
// with no cards taught nothing else tells the two apart.
func withoutDice(cards []card.Reading, dice []vision.Die) []card.Reading {
	return slices.DeleteFunc(cards, func(rd card.Reading) bool {
		if rd.ID != card.Unknown || rd.Method != card.MethodLearned {
			return false
		}
		area := rd.Box.Dx() * rd.Box.Dy()
		for _, d := range dice {
			in := rd.Box.Intersect(d.Box)
			if area > 0 && 2*in.Dx()*in.Dy() >= area {
				return true
			}
		}
		return false
	})
}

// printCards writes the cards identified in a picture, in the catalog's
// language.
func printCards(w io.Writer, cat *tracker.Catalog, res cardResult) {
	fmt.Fprintf(w, "%s:", res.Image)
	if res.Error != "" {
		fmt.Fprint(w, cat.T("pictureError", cat.Error(errors.New(res.Error))))
		return
	}
	if len(res.Cards) == 0 {
		fmt.Fprint(w, cat.T("noCards"))
		return
	}
	fmt.Fprintln(w)
	for _, c := range res.Cards {
		how := c.Method
		if c.Method == card.MethodLearned {
			how = cat.T("cardLearned")
		}
		if c.Marker != nil {
			how = cat.T("cardMarker", *c.Marker, c.Dictionary)
		}
		fmt.Fprint(w, cat.T("cardLine", c.ID, how, c.Box.Min.X, c.Box.Min.Y, c.Box.Max.X, c.Box.Max.Y, c.Confidence))
	}
}

func (a *app) learnCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "learn",
		Short: "Teach tablecam your own dice and cards from example pictures",
	}
	var set, reader string
	diceCmd := &cobra.Command{
		Use:   "dice --set NAME [--reader tuned|learned] DIR",
		Short: "Teach a dice set from DIR/<face-id>/ pictures (5 or more per face)",
		Long: `Teach a dice set from example pictures: DIR/<face-id>/ holds pictures of that face
(whole camera frames with exactly one die of the set, or crops around it); an
optional DIR/background.png is the table without dice. If NAME is a set of the
content pack (vats, assist, d6, d10, d20) the face ids must be its faces;
otherwise a new set is created with the directories' names as face ids. The
profile is stored in the data directory and used from then on.

--reader learned teaches the set to the learned reader instead (tablecam dice
--reader learned --set NAME reads it): each face is remembered as the learned
face model sees its pictures, nothing is retrained, and how well the pictures
read back (each against the others) is printed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if set == "" {
				return errors.New("learn dice needs --set NAME")
			}
			which, err := a.diceReader(reader)
			if err != nil {
				return err
			}
			c, err := a.packContent()
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if which == "learned" {
				return a.teachLearned(w, c, set, args[0])
			}
			cat := a.catalog()
			p, check, err := vision.TeachDice(c, set, args[0], func(s string) { fmt.Fprintln(w, sayLines(cat, s)) })
			if err != nil {
				return err
			}
			dir := vision.ProfileDir(a.cfg.DataDir, set)
			if err := p.Save(dir); err != nil {
				return err
			}
			taught := "taughtSet"
			if p.Custom {
				taught = "taughtNewSet"
			}
			fmt.Fprint(w, cat.T(taught, set, cat.Count(len(p.Set.Faces), "faces"), cat.Count(len(p.Examples), "examples"), dir))
			if p.Custom {
				fmt.Fprint(w, cat.T("playWithSet", set, set))
			}
			if check.Accuracy() < 0.99 {
				fmt.Fprint(w, cat.T("selfCheckLow"))
			}
			return nil
		},
	}
	diceCmd.Flags().StringVar(&set, "set", "", "the face set: vats, assist, d6, d10, d20, or a new name")
	diceCmd.Flags().StringVar(&reader, "reader", "", "the reader to teach: tuned or learned (default: vision.dice_reader)")
	cards := &cobra.Command{
		Use:   "cards DIR",
		Short: "Teach cards from DIR/<card-id>/ photos (two to five per card)",
		Long: `Teach cards from example photos: DIR/<card-id>/ holds photos of that card (whole
frames showing the card, or crops). The card ids are content ids (activation-3,
ghoul-2, goal-1) or your own. Teaching replaces the taught cards stored in the
data directory. Cards with an ID sticker need no teaching.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			w, cat := cmd.OutOrStdout(), a.catalog()
			ix, err := index.TeachFolder(args[0], func(s string) { fmt.Fprintln(w, sayLines(cat, s)) })
			if err != nil {
				return err
			}
			dir := cardsDir(a.cfg.DataDir)
			if err := ix.Save(dir); err != nil {
				return err
			}
			fmt.Fprint(w, cat.T("taughtCards", cat.Count(len(ix.Cards()), "cards"), dir))
			return nil
		},
	}
	cmd.AddCommand(diceCmd, cards)
	return cmd
}
