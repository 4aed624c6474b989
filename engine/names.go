package engine

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"tablecam/models"
)

// MaxNameLen is the longest name a group may give an enemy: short enough to
// write on a token.
const MaxNameLen = 12

// idLike matches the form of the ids tablecam gives enemies (e3, e3.2).
var idLike = regexp.MustCompile(`^[eE][0-9]+$`)

// checkEnemyName checks a name the group gives enemy i (i < 0: an enemy
// not yet on the map): 1 to MaxNameLen letters or digits, not in use by
// another enemy on the map (its name or id), and not read as something
// else where an enemy is typed (an id, an enemy type, faction or token id).
func checkEnemyName(c *models.Content, st *State, i int, name string) error {
	n := utf8.RuneCountInString(name)
	if n < 1 || n > MaxNameLen {
		return fmt.Errorf("enemy name %q: use 1 to %d letters or digits", name, MaxNameLen)
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return fmt.Errorf("enemy name %q: use only letters and digits (1 to %d)", name, MaxNameLen)
		}
	}
	if idLike.MatchString(name) {
		return fmt.Errorf("enemy name %q looks like an enemy id; choose another name", name)
	}
	if _, _, _, err := resolveType(c, strings.ToLower(name)); err == nil {
		return fmt.Errorf("enemy name %q is an enemy type, faction or token id; choose another name", name)
	}
	for k, e := range st.Enemies {
		if k == i {
			continue
		}
		if strings.EqualFold(e.Name, name) || strings.EqualFold(e.ID, name) {
			return fmt.Errorf("enemy name %q is taken by %s %s; names are unique on the map", name, TypeName(c, e.Type, false), e.ID)
		}
	}
	return nil
}

// levelLabel is the level as printed on a known token ("L2"), or "" when
// the enemy's printed token is not known.
func levelLabel(c *models.Content, e Enemy) string {
	if e.Token == "" {
		return ""
	}
	t, ok := c.EnemyType(e.Type)
	if !ok {
		return ""
	}
	tok, ok := t.Token(e.Token)
	if !ok {
		return ""
	}
	return fmt.Sprintf("L%d", tok.Level)
}

// EnemyName is what announcements call enemy i, so the group finds it on the
// table: the name the group gave it; else, when its printed token is known,
// the level printed on the token ("L2", read with the type: "Super Mutant
// L2") unless another enemy of its type shows the same level; else its id.
func (s *State) EnemyName(c *models.Content, i int) string {
	e := s.Enemies[i]
	if e.Name != "" {
		return e.Name
	}
	l := levelLabel(c, e)
	if l == "" {
		return e.ID
	}
	for k, o := range s.Enemies {
		if k != i && o.Type == e.Type && levelLabel(c, o) == l {
			return e.ID
		}
	}
	return l
}

// EnemyRef is how a typed command names enemy i: its announced name when
// that finds it (FindEnemy), else its id.
func (s *State) EnemyRef(c *models.Content, i int) string {
	n := s.EnemyName(c, i)
	if k, err := s.FindEnemy(c, n); err == nil && k == i {
		return n
	}
	return s.Enemies[i].ID
}

// FindEnemy finds the enemy on the map a group's reference names: its id,
// its name, a printed token id that exactly one enemy on the map has, or a
// printed level ("L2") that exactly one enemy on the map shows. Names and
// levels match in any letter case.
func (s *State) FindEnemy(c *models.Content, ref string) (int, error) {
	m := s.matchEnemies(c, ref)
	switch len(m) {
	case 0:
		return -1, fmt.Errorf("no enemy %q on the map", ref)
	case 1:
		return m[0], nil
	}
	var which []string
	for _, i := range m {
		e := s.Enemies[i]
		which = append(which, fmt.Sprintf("%s %s (token %s)", TypeName(c, e.Type, false), e.ID, e.Token))
	}
	return -1, fmt.Errorf("%q is on more than one enemy on the map: %s; give the id, or name one (enemy place ID as NAME)",
		ref, strings.Join(which, ", "))
}

// matchEnemies lists the enemies ref may name, in FindEnemy's order: the
// one with that id or name, else those with that token, else those showing
// that level.
func (s *State) matchEnemies(c *models.Content, ref string) []int {
	if i := s.Enemy(ref); i >= 0 {
		return []int{i}
	}
	if i := s.namedEnemy(ref); i >= 0 {
		return []int{i}
	}
	var byToken, byLevel []int
	for i, e := range s.Enemies {
		if e.Token != "" && e.Token == ref {
			byToken = append(byToken, i)
		}
		if l := levelLabel(c, e); l != "" && strings.EqualFold(l, ref) {
			byLevel = append(byLevel, i)
		}
	}
	if len(byToken) > 0 {
		return byToken
	}
	return byLevel
}

func (s *State) namedEnemy(ref string) int {
	for i, e := range s.Enemies {
		if e.Name != "" && strings.EqualFold(e.Name, ref) {
			return i
		}
	}
	return -1
}

// enemyVars are the outcome values naming enemy i: "id" the name the
// announcements use (EnemyName), "enemy_id" its id.
func (s *State) enemyVars(c *models.Content, i int, v Vars) Vars {
	v["id"] = s.EnemyName(c, i)
	v["enemy_id"] = s.Enemies[i].ID
	return v
}

// FightToken finds what a fight is against: an enemy on the map (FindEnemy)
// unless the token was drawn from the supply, else a printed token id, else
// an enemy type's or faction's lowest-level token. It returns the enemy's
// type, its token, and the index of the map enemy (-1 for none).
func FightToken(c *models.Content, st *State, ref string, drawn bool) (typ string, tok models.EnemyToken, i int, err error) {
	if drawn {
		// A drawn token is from the supply: an id or a name says an enemy
		// on the map is meant, which a drawn token cannot be.
		if st.Enemy(ref) >= 0 || st.namedEnemy(ref) >= 0 {
			return "", tok, -1, fmt.Errorf("fight: %s is on the map; draw is for tokens drawn from the supply", ref)
		}
	} else if m := st.matchEnemies(c, ref); len(m) == 1 {
		tok, err = TokenFor(c, st.Enemies[m[0]])
		return st.Enemies[m[0]].Type, tok, m[0], err
	} else if len(m) > 1 {
		_, err = st.FindEnemy(c, ref)
		return "", tok, -1, fmt.Errorf("fight: %w", err)
	}
	if t, tk, ok := c.Token(ref); ok {
		return t.ID, tk, -1, nil
	}
	typID := ref
	if f, ok := c.Faction(ref); ok {
		typID = f.Enemy
	}
	if t, ok := c.EnemyType(typID); ok {
		tok, err = TokenFor(c, Enemy{ID: "?", Type: t.ID})
		return t.ID, tok, -1, err
	}
	return "", tok, -1, fmt.Errorf("fight: no enemy %q on the map and no such token or type", ref)
}
