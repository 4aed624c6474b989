package tracker

import (
	"bytes"
	"fmt"
	"maps"
	"strings"
	"text/template"

	"tablecam/engine"
	"tablecam/models"
)

// Languages with a message catalog.
var _ = engine.KindSetup

// Catalog builds announcement sentences from outcomes in one language.
type Catalog struct {
	Lang string
	tpl  map[string]*template.Template
	// errs translates errors into Lang (none for English).
	errs []errorPattern
}

// Languages lists the languages with a shipped catalog.
func Languages() []string { return []string{"en", "de"} }

// NewCatalog returns the catalog for lang ("en" or "de").
func NewCatalog(lang string) (*Catalog, error) {
	src, ok := catalogs()[lang]
	if !ok {
		return nil, fmt.Errorf("no message catalog for language %q (have: %s)", lang, strings.Join(Languages(), ", "))
	}
	maps.Copy(src, gameCatalogs()[lang])
	and := map[string]string{"en": "and", "de": "und"}[lang]
	funcs := template.FuncMap{
		"list": func(v any) string {
			var items []string
			switch x := v.(type) {
			case []string:
				items = x
			case string:
				return x
			default:
				return fmt.Sprint(v)
			}
			switch len(items) {
			case 0:
				return ""
			case 1:
				return items[0]
			}
			return strings.Join(items[:len(items)-1], ", ") + " " + and + " " + items[len(items)-1]
		},
		"plural": func(n any, one, many string) string {
			if fmt.Sprint(n) == "1" {
				return one
			}
			return many
		},
		// sentence ends a text the group wrote with a full stop, unless
		// it has one.
		"sentence": func(v any) string {
			t := strings.TrimSpace(fmt.Sprint(v))
			if t == "" || strings.ContainsAny(t[len(t)-1:], ".!?") {
				return t
			}
			return t + "."
		},
		"len": func(v any) int {
			if x, ok := v.([]string); ok {
				return len(x)
			}
			return 0
		},
	}
	c := &Catalog{Lang: lang, tpl: map[string]*template.Template{}}
	if lang != "en" {
		c.errs = errorPatterns()
	}
	for kind, text := range src {
		t, err := template.New(kind).Funcs(funcs).Option("missingkey=zero").Parse(text)
		if err != nil {
			return nil, fmt.Errorf("catalog %s, message %s: %w", lang, kind, err)
		}
		c.tpl[kind] = t
	}
	return c, nil
}

// Has reports whether the catalog has a sentence for kind.
func (c *Catalog) Has(kind string) bool { _, ok := c.tpl[kind]; return ok }

// Kinds lists the message kinds of the catalog.
func (c *Catalog) Kinds() []string { return models.SortedKeys(c.tpl) }

// Text renders the sentence for one outcome.
func (c *Catalog) Text(o engine.Outcome) string {
	t, ok := c.tpl[o.Kind]
	if !ok {
		return fmt.Sprintf("%s %v", o.Kind, o.Vars)
	}
	var b bytes.Buffer
	vars := map[string]any(o.Vars)
	if vars == nil {
		vars = map[string]any{}
	}
	if err := t.Execute(&b, vars); err != nil {
		return strings.ReplaceAll(o.Kind, ".", " ")
	}
	text := strings.NewReplacer("<no value>", "", "<nil>", "").Replace(b.String())
	return strings.Join(strings.Fields(text), " ")
}

// Announce turns outcomes into announcements.
func (c *Catalog) Announce(seq int64, os []engine.Outcome) []models.Announcement {
	out := make([]models.Announcement, 0, len(os))
	for _, o := range os {
		data := map[string]any{}
		for k, v := range o.Vars {
			data[k] = v
		}
		out = append(out, models.Announcement{Seq: seq, Kind: o.Kind, Text: c.Text(o), Lang: c.Lang, Data: data})
	}
	return out
}

func catalogs() map[string]map[string]string {
	return map[string]map[string]string{
		"en": {
			engine.KindSetup:           `New game: {{.scenario}}. Loyal to the {{.loyal}}; the {{.opposing}} oppose you. Survivors: {{list .survivors}}. Power track of {{.track}} {{plural .track "space" "spaces"}}; {{.goals}} {{plural .goals "goal" "goals"}} required.`,
			engine.KindTestResult:      `{{.survivor}}: {{.hits}} {{plural .hits "hit" "hits"}}, difficulty {{.difficulty}} {{if .passed}}passed{{else}}failed{{end}}.`,
			engine.KindTestPending:     `{{.hits}} {{plural .hits "hit" "hits"}} against difficulty {{.difficulty}}, {{if .passed}}passing{{else}}failing{{end}}. {{.rerolls}} {{plural .rerolls "reroll" "rerolls"}} left: reroll, or say done.`,
			engine.KindRollFaces:       `Rolled {{list .faces}}{{if .numeric}}{{if gt (len .faces) 1}}, total {{.sum}}{{end}}{{else if .scored}}: {{.hits}} {{plural .hits "hit" "hits"}}{{end}}.`,
			engine.KindFightEnemy:      `{{if eq .hits 0}}{{.enemy}} misses {{.survivor}}.{{else}}{{.enemy}} deals {{if .damage}}{{.damage}} damage{{if .rads}} and {{.rads}} {{plural .rads "rad" "rads"}}{{end}}{{else if .rads}}{{.rads}} {{plural .rads "rad" "rads"}}{{else}}no damage{{end}} to {{.survivor}}{{if .blocked}}, armor blocks {{.blocked}}{{end}}.{{end}}`,
			engine.KindFightSurvivor:   `{{.survivor}} scores {{.hits}} {{plural .hits "hit" "hits"}}; {{.needed}} needed.`,
			engine.KindFightKilled:     `{{.enemy}} killed! {{.survivor}} gains {{.xp}} XP{{if .caps}} and {{.caps}} {{plural .caps "cap" "caps"}}{{end}}{{if .loot}}; draw a loot card{{end}}.`,
			engine.KindFightSurvived:   `{{.enemy}} survives and stays active.`,
			engine.KindFightRetreat:    `It retreats: turn it facedown.`,
			engine.KindFightDiscarded:  `Discard the drawn {{.enemy}} token.`,
			engine.KindFightReplace:    `Place a new {{.enemy}} token facedown on the nearest {{.enemy}} space.`,
			engine.KindAssistHurt:      `{{.survivor}} takes {{.damage}} damage for assisting.`,
			engine.KindAssistXP:        `{{.survivor}} gains {{.xp}} XP for assisting.`,
			engine.KindDamage:          `{{.survivor}} is down to {{.hp}} HP.`,
			engine.KindRads:            `{{.survivor}} has {{.total}} {{plural .total "rad" "rads"}}.`,
			engine.KindHeal:            `{{.survivor}} heals {{.n}}, now {{.hp}} HP.`,
			engine.KindXP:              `{{.survivor}} has {{.total}} XP.`,
			engine.KindCaps:            `{{.survivor}} has {{.total}} {{plural .total "cap" "caps"}}.`,
			engine.KindMutation:        `{{.survivor}} mutates: reveal your mutation card.`,
			engine.KindKilled:          `{{.survivor}} is killed!`,
			engine.KindRespawn:         `{{.survivor}} respawns at Crossroads Camp with {{.hp}} HP and {{.rads}} {{plural .rads "rad" "rads"}}. Discard your inventory.`,
			engine.KindOut:             `{{.survivor}} has maximum rads and is out of the game.`,
			engine.KindActivationCard:  `Enemy turn: {{.first}}, then {{.second}}.`,
			engine.KindActivateType:    `{{if and (eq .active 0) (eq .inactive 0)}}No {{.type}} on the map.{{else}}{{.type}} activate.{{end}}`,
			engine.KindEnemyAttack:     `{{.enemy}} {{.id}} attacks {{.survivor}}{{if .ranged}} from the next space{{end}}.`,
			engine.KindEnemyMoveTo:     `{{.enemy}} {{.id}} moves into {{.survivor}}'s space.`,
			engine.KindEnemyAggressive: `It is aggressive: {{.enemy}} {{.id}} attacks {{.survivor}} at once.`,
			engine.KindAttackDropped:   `{{.enemy}} {{.id}} no longer attacks {{.survivor}}.`,
			engine.KindEnemyMove:       `{{.enemy}} {{.id}} moves {{.steps}} {{plural .steps "space" "spaces"}} toward the nearest survivor{{if gt (len .priority) 1}}; if tied: {{list .priority}}, in that order{{end}}.`,
			engine.KindEnemyIdle:       `{{.enemy}} {{.id}} has no target and stays.`,
			engine.KindEnemyFlip:       `Turn {{.n}} inactive {{.type}} faceup.`,
			engine.KindLoyalIcon:       `{{.faction}} icon: they are loyal, nothing happens.`,
			engine.KindOpposingIcon:    `{{.faction}} icon: they oppose you.`,
			engine.KindActivationRow:   `{{.enemies}} {{.faction}} {{plural .enemies "enemy" "enemies"}} on the map{{if .text}}. Activation effect: {{sentence .text}}{{else}}: resolve the scenario sheet's activation effect for {{if lt .max 0}}{{.min}} or more enemies{{else if eq .min .max}}{{.min}} {{plural .min "enemy" "enemies"}}{{else}}{{.min}} to {{.max}} enemies{{end}} ({{.label}}).{{end}}`,
			engine.KindDeckReshuffled:  `The activation deck is empty: shuffle the {{.n}} discarded {{plural .n "card" "cards"}} into a new deck.`,
			engine.KindDeckEmpty:       `The activation deck is empty.`,
			engine.KindDeckRedrawn:     `{{.card}} was in the discard pile. Check the activation deck.`,
			engine.KindPower:           `{{.faction}} power advances {{.n}} to space {{.space}} of {{.track}}{{if gt .left 0}}; {{.left}} {{plural .left "space" "spaces"}} left{{end}}.`,
			engine.KindPowerRetreat:    `{{.faction}} power retreats {{.n}} to space {{.space}} of {{.track}}.`,
			engine.KindLoyalPlus:       `The {{.faction}} are loyal: resolve {{.label}} instead{{if .xp}}; {{.survivor}} gains {{.xp}} XP{{end}}{{if .caps}}; {{.caps}} {{plural .caps "cap" "caps"}}{{end}}{{if .camps}}; {{.camps}} C.A.M.P. {{plural .camps "token" "tokens"}}{{end}}.`,
			engine.KindGoal:            `Goals completed: {{.goals}}; {{.required}} required.`,
			engine.KindGoalsReached:    `All required goals are complete.`,
			engine.KindGoalSurplus:     `An extra goal: the opposing power retreats {{.n}}.`,
			engine.KindGameLost:        `The {{.faction}} reach the last space. The game is lost.`,
			engine.KindGameWon:         `Victory! The survivors win.`,
			engine.KindRound:           `Round {{.round}}. {{.first}} is first player.`,
			engine.KindFirstPlayer:     `{{.survivor}} is first player and takes the activation deck.`,
			engine.KindCamps:           `C.A.M.P. tokens: {{.total}}.`,
			engine.KindEnemyAdded:      `{{.enemy}} {{.id}} placed{{if not .active}} facedown{{end}}.`,
			engine.KindEnemyRemoved:    `{{.enemy}} {{.id}} removed.`,
			engine.KindEnemyCount:      `{{.enemy}} on the map: {{.n}}.`,
			engine.KindEnemyPlaced:     `{{.enemy}} {{.id}}{{if .with}} with {{list .with}}{{end}}{{if .adjacent}}, next to {{list .adjacent}}{{end}}{{if not .active}}, facedown{{end}}.`,
			engine.KindPowerSet:        `{{.faction}} power on space {{.space}} of {{.track}}.`,
			engine.KindGoalsSet:        `Goals: {{.goals}} of {{.required}}.`,
			KindFightPending:           `{{.enemy}} would deal {{.damage}} damage{{if .rads}} and {{.rads}} {{plural .rads "rad" "rads"}}{{end}}; {{.hits}} of {{.needed}} {{plural .needed "hit" "hits"}}{{if .killed}}, a kill{{end}}. {{.rerolls}} {{plural .rerolls "reroll" "rerolls"}} left: reroll, or say done.`,
			KindFightPrompt:            `{{.survivor}}, roll the fight against {{.enemy}} {{.id}}.`,
			KindContextTest:            `{{.survivor}} tests at difficulty {{.difficulty}}{{if .rerolls}} with {{.rerolls}} {{plural .rerolls "reroll" "rerolls"}}{{end}}. Roll.`,
			KindContextFight:           `{{.survivor}} fights {{.enemy}}{{if .assistant}}, {{.assistant}} assists{{end}}. Roll.`,
			KindContextClear:           `Next roll: no context.`,
			KindUndo:                   `Undone: {{.what}}.`,
			KindRedo:                   `Redone: {{.what}}.`,
			KindNothingUndo:            `Nothing to undo.`,
			KindNothingRedo:            `Nothing to redo.`,
			KindCorrect:                `Reading {{.target}} corrected to {{list .faces}}; later effects recomputed.`,
			KindNoted:                  `Noted: {{.what}}.`,
			KindSkipped:                `Event {{.seq}} no longer applies: {{.reason}}.`,
			KindRestedUsed:             `{{.survivor}} discards Well Rested for that reroll.`,
			KindUncertain:              `Not sure of {{list .faces}}: confirm with done, or correct reading {{.seq}}.`,
			KindRecomputed:             `Now: power {{.space}} of {{.track}}, goals {{.goals}} of {{.required}}, round {{.round}}.`,
		},
		"de": {
			engine.KindSetup:           `Neues Spiel: {{.scenario}}. Loyal: {{.loyal}}; verfeindet: {{.opposing}}. Überlebende: {{list .survivors}}. Machtskala mit {{.track}} Feldern, {{.goals}} Aufgaben nötig.`,
			engine.KindTestResult:      `{{.survivor}}: {{.hits}} {{plural .hits "Treffer" "Treffer"}}, Schwierigkeit {{.difficulty}} {{if .passed}}bestanden{{else}}nicht bestanden{{end}}.`,
			engine.KindTestPending:     `{{.hits}} Treffer gegen Schwierigkeit {{.difficulty}}, {{if .passed}}reicht{{else}}reicht nicht{{end}}. Noch {{.rerolls}} {{plural .rerolls "Neuwurf" "Neuwürfe"}}: neu werfen oder fertig sagen.`,
			engine.KindRollFaces:       `Gewürfelt: {{list .faces}}{{if .numeric}}{{if gt (len .faces) 1}}, Summe {{.sum}}{{end}}{{else if .scored}}: {{.hits}} Treffer{{end}}.`,
			engine.KindFightEnemy:      `{{if eq .hits 0}}{{.enemy}} verfehlt {{.survivor}}.{{else}}{{.enemy}} verursacht {{if .damage}}{{.damage}} Schaden{{if .rads}} und {{.rads}} Strahlung{{end}}{{else if .rads}}{{.rads}} Strahlung{{else}}keinen Schaden{{end}} bei {{.survivor}}{{if .blocked}}, Rüstung blockt {{.blocked}}{{end}}.{{end}}`,
			engine.KindFightSurvivor:   `{{.survivor}} erzielt {{.hits}} Treffer; {{.needed}} nötig.`,
			engine.KindFightKilled:     `{{.enemy}} getötet! {{.survivor}} erhält {{.xp}} EP{{if .caps}} und {{.caps}} Kronkorken{{end}}{{if .loot}}; zieh eine Beutekarte{{end}}.`,
			engine.KindFightSurvived:   `{{.enemy}} überlebt und bleibt aktiv.`,
			engine.KindFightRetreat:    `Rückzug: dreh den Marker um.`,
			engine.KindFightDiscarded:  `Leg den gezogenen Marker {{.enemy}} ab.`,
			engine.KindFightReplace:    `Leg einen neuen Marker {{.enemy}} verdeckt auf das nächste passende Feld.`,
			engine.KindAssistHurt:      `{{.survivor}} erleidet {{.damage}} Schaden durch das Unterstützen.`,
			engine.KindAssistXP:        `{{.survivor}} erhält {{.xp}} EP für das Unterstützen.`,
			engine.KindDamage:          `{{.survivor}} hat noch {{.hp}} Trefferpunkte.`,
			engine.KindRads:            `{{.survivor}} hat {{.total}} Strahlung.`,
			engine.KindHeal:            `{{.survivor}} heilt {{.n}}, jetzt {{.hp}} Trefferpunkte.`,
			engine.KindXP:              `{{.survivor}} hat {{.total}} EP.`,
			engine.KindCaps:            `{{.survivor}} hat {{.total}} Kronkorken.`,
			engine.KindMutation:        `{{.survivor}} mutiert: deck deine Mutation auf.`,
			engine.KindKilled:          `{{.survivor}} stirbt!`,
			engine.KindRespawn:         `{{.survivor}} kehrt im Crossroads-Lager zurück, mit {{.hp}} Trefferpunkten und {{.rads}} Strahlung. Leg dein Inventar ab.`,
			engine.KindOut:             `{{.survivor}} hat maximale Strahlung und scheidet aus.`,
			engine.KindActivationCard:  `Gegnerzug: {{.first}}, dann {{.second}}.`,
			engine.KindActivateType:    `{{if and (eq .active 0) (eq .inactive 0)}}{{.type}}: keine auf dem Spielplan.{{else}}Aktivierung: {{.type}}.{{end}}`,
			engine.KindEnemyAttack:     `{{.enemy}} {{.id}} greift {{.survivor}} an{{if .ranged}}, aus dem Nachbarfeld{{end}}.`,
			engine.KindEnemyMoveTo:     `{{.enemy}} {{.id}} zieht in das Feld von {{.survivor}}.`,
			engine.KindEnemyAggressive: `Aggressiv: {{.enemy}} {{.id}} greift {{.survivor}} sofort an.`,
			engine.KindAttackDropped:   `{{.enemy}} {{.id}} greift {{.survivor}} nicht mehr an.`,
			engine.KindEnemyMove:       `{{.enemy}} {{.id}} zieht {{.steps}} {{plural .steps "Feld" "Felder"}} auf den nächsten Überlebenden zu{{if gt (len .priority) 1}}; bei Gleichstand: {{list .priority}}, in dieser Reihenfolge{{end}}.`,
			engine.KindEnemyIdle:       `{{.enemy}} {{.id}} hat kein Ziel und bleibt stehen.`,
			engine.KindEnemyFlip:       `{{.type}}: dreh {{.n}} {{plural .n "inaktiven Marker" "inaktive Marker"}} auf die aktive Seite.`,
			engine.KindLoyalIcon:       `Symbol: {{.faction}}, loyal – nichts passiert.`,
			engine.KindOpposingIcon:    `Symbol: {{.faction}}, verfeindet.`,
			engine.KindActivationRow:   `{{.enemies}} Gegner ({{.faction}}) auf dem Spielplan{{if .text}}. Aktivierungswirkung: {{sentence .text}}{{else}}: Handelt die Aktivierungswirkung des Szenariobogens für {{if lt .max 0}}{{.min}} oder mehr Gegner{{else if eq .min .max}}{{.min}} Gegner{{else}}{{.min}} bis {{.max}} Gegner{{end}} ab ({{.label}}).{{end}}`,
			engine.KindDeckReshuffled:  `Der Aktivierungsstapel ist leer: misch die {{.n}} abgelegten Karten zu einem neuen Stapel.`,
			engine.KindDeckEmpty:       `Der Aktivierungsstapel ist leer.`,
			engine.KindDeckRedrawn:     `{{.card}} lag schon auf dem Ablagestapel. Prüft den Aktivierungsstapel.`,
			engine.KindPower:           `Der Machtmarker ({{.faction}}) rückt {{.n}} {{plural .n "Feld" "Felder"}} vor, auf Feld {{.space}} von {{.track}}{{if gt .left 0}}; noch {{.left}} {{plural .left "Feld" "Felder"}}{{end}}.`,
			engine.KindPowerRetreat:    `Der Machtmarker ({{.faction}}) fällt {{.n}} {{plural .n "Feld" "Felder"}} zurück, auf Feld {{.space}} von {{.track}}.`,
			engine.KindLoyalPlus:       `{{.faction}} ist loyal: handle stattdessen {{.label}} ab{{if .xp}}; {{.survivor}} erhält {{.xp}} EP{{end}}{{if .caps}}; {{.caps}} Kronkorken{{end}}{{if .camps}}; {{.camps}} C.A.M.P.-Marker{{end}}.`,
			engine.KindGoal:            `Aufgaben erfüllt: {{.goals}}; {{.required}} nötig.`,
			engine.KindGoalsReached:    `Alle nötigen Aufgaben sind erfüllt.`,
			engine.KindGoalSurplus:     `Eine weitere Aufgabe: die verfeindete Macht fällt {{.n}} Felder zurück.`,
			engine.KindGameLost:        `Der Machtmarker ({{.faction}}) erreicht das letzte Feld. Das Spiel ist verloren.`,
			engine.KindGameWon:         `Sieg! Die Überlebenden gewinnen.`,
			engine.KindRound:           `Runde {{.round}}. {{.first}} ist Startspieler.`,
			engine.KindFirstPlayer:     `{{.survivor}} ist Startspieler und nimmt den Aktivierungsstapel.`,
			engine.KindCamps:           `C.A.M.P.-Marker: {{.total}}.`,
			engine.KindEnemyAdded:      `{{.enemy}} {{.id}} {{if not .active}}verdeckt {{end}}platziert.`,
			engine.KindEnemyRemoved:    `{{.enemy}} {{.id}} entfernt.`,
			engine.KindEnemyCount:      `{{.enemy}} auf dem Spielplan: {{.n}}.`,
			engine.KindEnemyPlaced:     `{{.enemy}} {{.id}}{{if .with}} bei {{list .with}}{{end}}{{if .adjacent}}, neben {{list .adjacent}}{{end}}{{if not .active}}, verdeckt{{end}}.`,
			engine.KindPowerSet:        `Macht von {{.faction}} auf Feld {{.space}} von {{.track}}.`,
			engine.KindGoalsSet:        `Aufgaben: {{.goals}} von {{.required}}.`,
			KindFightPending:           `{{.enemy}} würde {{.damage}} Schaden verursachen{{if .rads}} und {{.rads}} Strahlung{{end}}; {{.hits}} von {{.needed}} Treffern{{if .killed}}, getötet{{end}}. Noch {{.rerolls}} {{plural .rerolls "Neuwurf" "Neuwürfe"}}: neu werfen oder fertig sagen.`,
			KindFightPrompt:            `{{.survivor}}, würfle den Kampf gegen {{.enemy}} {{.id}}.`,
			KindContextTest:            `{{.survivor}} legt eine Probe mit Schwierigkeit {{.difficulty}} ab{{if .rerolls}}, {{.rerolls}} {{plural .rerolls "Neuwurf" "Neuwürfe"}}{{end}}. Würfeln.`,
			KindContextFight:           `{{.survivor}} kämpft gegen {{.enemy}}{{if .assistant}}, {{.assistant}} unterstützt{{end}}. Würfeln.`,
			KindContextClear:           `Nächster Wurf: ohne Zusammenhang.`,
			KindUndo:                   `Rückgängig: {{.what}}.`,
			KindRedo:                   `Wiederhergestellt: {{.what}}.`,
			KindNothingUndo:            `Nichts rückgängig zu machen.`,
			KindNothingRedo:            `Nichts wiederherzustellen.`,
			KindCorrect:                `Wurf {{.target}} korrigiert auf {{list .faces}}; Folgen neu berechnet.`,
			KindNoted:                  `Notiert: {{.what}}.`,
			KindSkipped:                `Ereignis {{.seq}} gilt nicht mehr: {{.reason}}.`,
			KindRestedUsed:             `{{.survivor}} wirft „Gut ausgeruht“ für diesen Neuwurf ab.`,
			KindUncertain:              `Unsicher: {{list .faces}}. Bestätigt mit fertig oder korrigiert Wurf {{.seq}}.`,
			KindRecomputed:             `Jetzt: Macht {{.space}} von {{.track}}, Aufgaben {{.goals}} von {{.required}}, Runde {{.round}}.`,
		},
	}
}
