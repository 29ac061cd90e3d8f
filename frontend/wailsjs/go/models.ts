export namespace main {
	
	export class PageState {
	    route: string;
	    title: string;
	    headings: string[];
	    ticks: number;
	    tickLagP50Ms: number;
	    tickLagP99Ms: number;
	
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
	    }
	}
	export class Settings {
	    startRoute: string;
	    kiosk: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.startRoute = source["startRoute"];
	        this.kiosk = source["kiosk"];
	    }
	}

}

export namespace news {
	
	export class Article {
	    id: string;
	    title: string;
	    // Go type: time
	    date: any;
	    content: string;
	    html: string;
	    preview: string;
	
	    static createFrom(source: any = {}) {
	        return new Article(source);
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
	    articles: Article[];
	    // Go type: time
	    asOf: any;
	    live: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Snapshot(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.articles = this.convertValues(source["articles"], Article);
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

