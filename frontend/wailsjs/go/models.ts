export namespace board {
	
	export class Alliance {
	    number: number;
	    name: string;
	    teams: string[];
	    backup: string;
	    out: string;
	    state: string;
	    round: string;
	    ours: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Alliance(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.number = source["number"];
	        this.name = source["name"];
	        this.teams = source["teams"];
	        this.backup = source["backup"];
	        this.out = source["out"];
	        this.state = source["state"];
	        this.round = source["round"];
	        this.ours = source["ours"];
	    }
	}
	export class Announcement {
	    id: string;
	    text: string;
	    // Go type: time
	    posted: any;
	
	    static createFrom(source: any = {}) {
	        return new Announcement(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.text = source["text"];
	        this.posted = this.convertValues(source["posted"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class BracketSource {
	    kind: string;
	    alliance?: number;
	    match?: number;
	
	    static createFrom(source: any = {}) {
	        return new BracketSource(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.alliance = source["alliance"];
	        this.match = source["match"];
	    }
	}
	export class BracketSide {
	    alliance: number;
	    from: BracketSource;
	
	    static createFrom(source: any = {}) {
	        return new BracketSide(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.alliance = source["alliance"];
	        this.from = this.convertValues(source["from"], BracketSource);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class BracketMatch {
	    number: number;
	    round: string;
	    red: BracketSide;
	    blue: BracketSide;
	    winner: string;
	    redWins: number;
	    blueWins: number;
	    ours: boolean;
	
	    static createFrom(source: any = {}) {
	        return new BracketMatch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.number = source["number"];
	        this.round = source["round"];
	        this.red = this.convertValues(source["red"], BracketSide);
	        this.blue = this.convertValues(source["blue"], BracketSide);
	        this.winner = source["winner"];
	        this.redWins = source["redWins"];
	        this.blueWins = source["blueWins"];
	        this.ours = source["ours"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Criterion {
	    name: string;
	    value: number;
	    precision: number;
	
	    static createFrom(source: any = {}) {
	        return new Criterion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.value = source["value"];
	        this.precision = source["precision"];
	    }
	}
	export class Turnaround {
	    kind: string;
	    minutes?: number;
	
	    static createFrom(source: any = {}) {
	        return new Turnaround(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.minutes = source["minutes"];
	    }
	}
	export class When {
	    kind: string;
	    // Go type: time
	    at: any;
	
	    static createFrom(source: any = {}) {
	        return new When(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.at = this.convertValues(source["at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MatchTimes {
	    // Go type: time
	    queue?: any;
	    // Go type: time
	    onDeck?: any;
	    // Go type: time
	    onField?: any;
	    // Go type: time
	    start?: any;
	    // Go type: time
	    scheduled?: any;
	    // Go type: time
	    actualStart?: any;
	
	    static createFrom(source: any = {}) {
	        return new MatchTimes(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.queue = this.convertValues(source["queue"], null);
	        this.onDeck = this.convertValues(source["onDeck"], null);
	        this.onField = this.convertValues(source["onField"], null);
	        this.start = this.convertValues(source["start"], null);
	        this.scheduled = this.convertValues(source["scheduled"], null);
	        this.actualStart = this.convertValues(source["actualStart"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Match {
	    key: string;
	    label: string;
	    status: string;
	    step: number;
	    urgent: boolean;
	    alliance: string;
	    red: string[];
	    blue: string[];
	    partners: string[];
	    times: MatchTimes;
	    breakAfter: string;
	    redScore?: number;
	    blueScore?: number;
	    result: string;
	    replayOf: string;
	    when?: When;
	    turnaround?: Turnaround;
	
	    static createFrom(source: any = {}) {
	        return new Match(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.label = source["label"];
	        this.status = source["status"];
	        this.step = source["step"];
	        this.urgent = source["urgent"];
	        this.alliance = source["alliance"];
	        this.red = source["red"];
	        this.blue = source["blue"];
	        this.partners = source["partners"];
	        this.times = this.convertValues(source["times"], MatchTimes);
	        this.breakAfter = source["breakAfter"];
	        this.redScore = source["redScore"];
	        this.blueScore = source["blueScore"];
	        this.result = source["result"];
	        this.replayOf = source["replayOf"];
	        this.when = this.convertValues(source["when"], When);
	        this.turnaround = this.convertValues(source["turnaround"], Turnaround);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class OurAlliance {
	    number: number;
	    role: string;
	    partners: string[];
	
	    static createFrom(source: any = {}) {
	        return new OurAlliance(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.number = source["number"];
	        this.role = source["role"];
	        this.partners = source["partners"];
	    }
	}
	export class PartsRequest {
	    id: string;
	    team: string;
	    parts: string;
	    // Go type: time
	    posted: any;
	
	    static createFrom(source: any = {}) {
	        return new PartsRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.team = source["team"];
	        this.parts = source["parts"];
	        this.posted = this.convertValues(source["posted"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Series {
	    ours: number;
	    theirs: number;
	
	    static createFrom(source: any = {}) {
	        return new Series(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ours = source["ours"];
	        this.theirs = source["theirs"];
	    }
	}
	export class Route {
	    kind: string;
	    match?: number;
	    colour?: string;
	    game?: number;
	
	    static createFrom(source: any = {}) {
	        return new Route(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.match = source["match"];
	        this.colour = source["colour"];
	        this.game = source["game"];
	    }
	}
	export class PlayoffNext {
	    match: number;
	    game: number;
	    alliance: string;
	    opponent: BracketSource;
	    ifWin: Route;
	    ifLose: Route;
	    series?: Series;
	
	    static createFrom(source: any = {}) {
	        return new PlayoffNext(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.match = source["match"];
	        this.game = source["game"];
	        this.alliance = source["alliance"];
	        this.opponent = this.convertValues(source["opponent"], BracketSource);
	        this.ifWin = this.convertValues(source["ifWin"], Route);
	        this.ifLose = this.convertValues(source["ifLose"], Route);
	        this.series = this.convertValues(source["series"], Series);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Record {
	    wins: number;
	    losses: number;
	    ties: number;
	
	    static createFrom(source: any = {}) {
	        return new Record(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.wins = source["wins"];
	        this.losses = source["losses"];
	        this.ties = source["ties"];
	    }
	}
	export class Playoffs {
	    type: number;
	    alliances: Alliance[];
	    ours?: OurAlliance;
	    selectionDone: boolean;
	    bracket: BracketMatch[];
	    record: Record;
	    round: string;
	    state: string;
	    outcome: string;
	    next?: PlayoffNext;
	
	    static createFrom(source: any = {}) {
	        return new Playoffs(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.alliances = this.convertValues(source["alliances"], Alliance);
	        this.ours = this.convertValues(source["ours"], OurAlliance);
	        this.selectionDone = source["selectionDone"];
	        this.bracket = this.convertValues(source["bracket"], BracketMatch);
	        this.record = this.convertValues(source["record"], Record);
	        this.round = source["round"];
	        this.state = source["state"];
	        this.outcome = source["outcome"];
	        this.next = this.convertValues(source["next"], PlayoffNext);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Prediction {
	    winChance: number;
	    matches: number;
	
	    static createFrom(source: any = {}) {
	        return new Prediction(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.winChance = source["winChance"];
	        this.matches = source["matches"];
	    }
	}
	export class Rank {
	    rank: number;
	    of: number;
	    record: Record;
	
	    static createFrom(source: any = {}) {
	        return new Rank(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.rank = source["rank"];
	        this.of = source["of"];
	        this.record = this.convertValues(source["record"], Record);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RankForecast {
	    top8: number;
	    expectedRank: number;
	    low: number;
	    high: number;
	
	    static createFrom(source: any = {}) {
	        return new RankForecast(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.top8 = source["top8"];
	        this.expectedRank = source["expectedRank"];
	        this.low = source["low"];
	        this.high = source["high"];
	    }
	}
	
	
	export class SeasonPlayoff {
	    kind: string;
	    alliance: number;
	    level?: string;
	    round: number;
	    record?: Record;
	
	    static createFrom(source: any = {}) {
	        return new SeasonPlayoff(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.alliance = source["alliance"];
	        this.level = source["level"];
	        this.round = source["round"];
	        this.record = this.convertValues(source["record"], Record);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SeasonEvent {
	    key: string;
	    name: string;
	    place: string;
	    start: string;
	    end: string;
	    rank: number;
	    of: number;
	    record?: Record;
	    playoff: SeasonPlayoff;
	    awards: string[];
	
	    static createFrom(source: any = {}) {
	        return new SeasonEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.name = source["name"];
	        this.place = source["place"];
	        this.start = source["start"];
	        this.end = source["end"];
	        this.rank = source["rank"];
	        this.of = source["of"];
	        this.record = this.convertValues(source["record"], Record);
	        this.playoff = this.convertValues(source["playoff"], SeasonPlayoff);
	        this.awards = source["awards"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Source {
	    state: string;
	    message: string;
	    // Go type: time
	    asOf: any;
	
	    static createFrom(source: any = {}) {
	        return new Source(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.state = source["state"];
	        this.message = source["message"];
	        this.asOf = this.convertValues(source["asOf"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Webcast {
	    type: string;
	    url: string;
	
	    static createFrom(source: any = {}) {
	        return new Webcast(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.url = source["url"];
	    }
	}
	export class TeamCard {
	    team: string;
	    name: string;
	    alliance: string;
	    opr?: number;
	    forecast?: RankForecast;
	
	    static createFrom(source: any = {}) {
	        return new TeamCard(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.team = source["team"];
	        this.name = source["name"];
	        this.alliance = source["alliance"];
	        this.opr = source["opr"];
	        this.forecast = this.convertValues(source["forecast"], RankForecast);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Status {
	    configured: boolean;
	    message: string;
	    team: number;
	    eventKey: string;
	    nexusEventKey: string;
	    eventName: string;
	    timezone: string;
	    eventPlace: string;
	    eventStart: string;
	    eventEnd: string;
	    phase: string;
	    season: SeasonEvent[];
	    nextMatch?: Match;
	    upcoming: Match[];
	    recent: Match[];
	    onField?: Match;
	    nowQueuing: string;
	    schedule: Match[];
	    fieldLateMinutes?: number;
	    playoffs?: Playoffs;
	    teamCards: TeamCard[];
	    prediction?: Prediction;
	    rank?: Rank;
	    forecast?: RankForecast;
	    rankCriteria: Criterion[];
	    rankTrend: number[];
	    pit: string;
	    announcements: Announcement[];
	    partsRequests: PartsRequest[];
	    webcasts: Webcast[];
	    nexus: Source;
	    tba: Source;
	    // Go type: time
	    asOf: any;
	    stale: boolean;
	    feedDown: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.configured = source["configured"];
	        this.message = source["message"];
	        this.team = source["team"];
	        this.eventKey = source["eventKey"];
	        this.nexusEventKey = source["nexusEventKey"];
	        this.eventName = source["eventName"];
	        this.timezone = source["timezone"];
	        this.eventPlace = source["eventPlace"];
	        this.eventStart = source["eventStart"];
	        this.eventEnd = source["eventEnd"];
	        this.phase = source["phase"];
	        this.season = this.convertValues(source["season"], SeasonEvent);
	        this.nextMatch = this.convertValues(source["nextMatch"], Match);
	        this.upcoming = this.convertValues(source["upcoming"], Match);
	        this.recent = this.convertValues(source["recent"], Match);
	        this.onField = this.convertValues(source["onField"], Match);
	        this.nowQueuing = source["nowQueuing"];
	        this.schedule = this.convertValues(source["schedule"], Match);
	        this.fieldLateMinutes = source["fieldLateMinutes"];
	        this.playoffs = this.convertValues(source["playoffs"], Playoffs);
	        this.teamCards = this.convertValues(source["teamCards"], TeamCard);
	        this.prediction = this.convertValues(source["prediction"], Prediction);
	        this.rank = this.convertValues(source["rank"], Rank);
	        this.forecast = this.convertValues(source["forecast"], RankForecast);
	        this.rankCriteria = this.convertValues(source["rankCriteria"], Criterion);
	        this.rankTrend = source["rankTrend"];
	        this.pit = source["pit"];
	        this.announcements = this.convertValues(source["announcements"], Announcement);
	        this.partsRequests = this.convertValues(source["partsRequests"], PartsRequest);
	        this.webcasts = this.convertValues(source["webcasts"], Webcast);
	        this.nexus = this.convertValues(source["nexus"], Source);
	        this.tba = this.convertValues(source["tba"], Source);
	        this.asOf = this.convertValues(source["asOf"], null);
	        this.stale = source["stale"];
	        this.feedDown = source["feedDown"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	

}

export namespace desktop {
	
	export class PageSettings {
	    startRoute: string;
	    kiosk: boolean;
	    siteUrl: string;
	
	    static createFrom(source: any = {}) {
	        return new PageSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.startRoute = source["startRoute"];
	        this.kiosk = source["kiosk"];
	        this.siteUrl = source["siteUrl"];
	    }
	}
	export class PageState {
	    route: string;
	    title: string;
	    headings: string[];
	    ticks: number;
	    tickLagP50Ms: number;
	    tickLagP99Ms: number;
	    tickSentP99Ms: number;
	
	    static createFrom(source: any = {}) {
	        return new PageState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.route = source["route"];
	        this.title = source["title"];
	        this.headings = source["headings"];
	        this.ticks = source["ticks"];
	        this.tickLagP50Ms = source["tickLagP50Ms"];
	        this.tickLagP99Ms = source["tickLagP99Ms"];
	        this.tickSentP99Ms = source["tickSentP99Ms"];
	    }
	}
	export class Violation {
	    load: string;
	    route: string;
	    directive: string;
	    blocked: string;
	    source: string;
	    sample: string;
	
	    static createFrom(source: any = {}) {
	        return new Violation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.load = source["load"];
	        this.route = source["route"];
	        this.directive = source["directive"];
	        this.blocked = source["blocked"];
	        this.source = source["source"];
	        this.sample = source["sample"];
	    }
	}

}

export namespace news {
	
	export class Rendered {
	    id: string;
	    title: string;
	    // Go type: time
	    date: any;
	    content: string;
	    html: string;
	    preview: string;
	
	    static createFrom(source: any = {}) {
	        return new Rendered(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.date = this.convertValues(source["date"], null);
	        this.content = source["content"];
	        this.html = source["html"];
	        this.preview = source["preview"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Snapshot {
	    articles: Rendered[];
	    // Go type: time
	    asOf: any;
	    live: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Snapshot(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.articles = this.convertValues(source["articles"], Rendered);
	        this.asOf = this.convertValues(source["asOf"], null);
	        this.live = source["live"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

