package frame

import (
	"context"
	"fmt"
	"image"
	"strconv"
	"strings"
)

// Crop returns a stage that cuts every frame of src to the table area r
// (frame pixels; the part of r outside a frame is dropped). An empty r
// passes frames through. Closing the stage closes src.
func Crop(src Source, r image.Rectangle) Source {
	return &crop{src: src, r: r}
}

type crop struct {
	src Source
	r   image.Rectangle
}

func (c *crop) Read(ctx context.Context) (Frame, error) {
	f, err := c.src.Read(ctx)
	if err != nil || c.r.Empty() {
		return f, err
	}
	w, h := f.Mat.Cols(), f.Mat.Rows()
	r := c.r.Intersect(image.Rect(0, 0, w, h))
	if r.Empty() {
		f.Close()
		return Frame{}, fmt.Errorf("vision: crop %v lies outside the %dx%d frame", c.r, w, h)
	}
	region := f.Mat.Region(r)
	cut := region.Clone()
	region.Close()
	f.Mat.Close()
	f.Mat = cut
	return f, nil
}

func (c *crop) Close() error { return c.src.Close() }

// ParseCrop parses a table area "x0,y0,x1,y1" in frame pixels; "" is no
// crop.
func ParseCrop(s string) (image.Rectangle, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return image.Rectangle{}, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return image.Rectangle{}, fmt.Errorf("want x0,y0,x1,y1 in pixels such as 100,50,1180,700, got %q", s)
	}
	var v [4]int
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 || n > maxImageSide {
			return image.Rectangle{}, fmt.Errorf("want x0,y0,x1,y1 in pixels such as 100,50,1180,700, got %q", s)
		}
		v[i] = n
	}
	r := image.Rect(v[0], v[1], v[2], v[3])
	if r.Dx() < 32 || r.Dy() < 32 {
		return image.Rectangle{}, fmt.Errorf("the area %q is smaller than 32x32 pixels", s)
	}
	return r, nil
}
