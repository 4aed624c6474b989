package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"tablecam/stickers"
	"tablecam/vision/marker"
)

// markerMap loads the marker map: the default, with the group's file
// (--markers, else DATA_DIR/markers.yaml when it exists) merged over it.
func (a *app) markerMap(path string) (*marker.Map, error) {
	if path == "" {
		p := filepath.Join(a.cfg.DataDir, "markers.yaml")
		if _, err := os.Stat(p); err == nil {
			path = p
		}
	}
	if path == "" {
		return marker.DefaultMap(), nil
	}
	return marker.LoadMap(path)
}

// parseIDs parses "0-47" or "0-7,53,60-64".
func parseIDs(s string) ([]int, error) {
	var ids []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("--ids: %q is not a number or range", part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("--ids: %q is not a range like 0-47", part)
			}
		}
		if b-a > 10000 {
			return nil, fmt.Errorf("--ids: range %q is too long", part)
		}
		for i := a; i <= b; i++ {
			ids = append(ids, i)
		}
	}
	return ids, nil
}

// parseMM parses "15mm", "1.5cm" or "15".
func parseMM(s string) (float64, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	mul := 1.0
	switch {
	case strings.HasSuffix(s, "mm"):
		s = strings.TrimSuffix(s, "mm")
	case strings.HasSuffix(s, "cm"):
		s, mul = strings.TrimSuffix(s, "cm"), 10
	case strings.HasSuffix(s, "in"):
		s, mul = strings.TrimSuffix(s, "in"), 25.4
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("--size: %q is not a length like 15mm", s)
	}
	return v * mul, nil
}

func (a *app) stickersCmd() *cobra.Command {
	var ids, size, out, paper, markers string
	var dpi int
	cmd := &cobra.Command{
		Use:   "stickers --ids 0-47 --size 15mm -o FILE",
		Short: "Write a printable sheet of ArUco ID stickers (PDF and PNG, A4 or Letter, print at 100%)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			list, err := parseIDs(ids)
			if err != nil {
				return err
			}
			side, err := parseMM(size)
			if err != nil {
				return err
			}
			m, err := a.markerMap(markers)
			if err != nil {
				return err
			}
			if out == "" {
				return fmt.Errorf("stickers needs -o FILE")
			}
			png, pdf, err := stickers.Render(stickers.Spec{Dict: m.Dict(), IDs: list, SideMM: side, Paper: paper, DPI: dpi, Labels: m.Labels()})
			if err != nil {
				return err
			}
			base := strings.TrimSuffix(strings.TrimSuffix(out, ".pdf"), ".png")
			if err := os.WriteFile(base+".pdf", pdf, 0o644); err != nil {
				return fmt.Errorf("write sticker sheet: %w", err)
			}
			if err := os.WriteFile(base+".png", png, 0o644); err != nil {
				return fmt.Errorf("write sticker sheet: %w", err)
			}
			perPage, pages, _ := stickers.Spec{Dict: m.Dict(), IDs: list, SideMM: side, Paper: paper, DPI: dpi}.Pages()
			cat := a.catalog()
			fmt.Fprint(cmd.OutOrStdout(), cat.T("stickersWritten", base, cat.Count(pages, "pages"), perPage, base, cat.Count(len(list), "markers"), m.Dict(), side))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&ids, "ids", "0-7", "marker ids: 0-47 or 0-7,53-64")
	f.StringVar(&size, "size", "15mm", "marker side (mm, cm or in)")
	f.StringVarP(&out, "output", "o", "", "output file (FILE.pdf and FILE.png are written)")
	f.StringVar(&paper, "paper", "A4", "A4 or Letter")
	f.IntVar(&dpi, "dpi", 300, "resolution of the raster (150-600)")
	f.StringVar(&markers, "markers", "", "marker map file merged over the default (default DATA_DIR/markers.yaml if present)")
	return cmd
}
