import Support

/// The one inline script of each page (the report and the replay view), allowed by its hash in
/// the page's content security policy, and that policy.
///
/// The map code is shared: both pages pan and zoom the same `svg#map` drawn by ``MapFigure``.
enum PageScript {
    /// The content security policy of a page whose only script is `script`: nothing may be
    /// loaded, except images from the basemap's host when there is one.
    static func policy(script: String, basemap: String?) -> String {
        var csp = "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-\(SHA256.base64Digest(script))'"
        if let basemap, let host = MapFigure.host(basemap) { csp += "; img-src \(host)" }
        return csp
    }

    /// Sortable tables: a click on a heading sorts by that column, numerically where cells
    /// carry `data-v`.
    static let tables = """
        function fsTables(){
        function key(td){var v=td.getAttribute('data-v');if(v===null)return {n:false,v:td.textContent};if(v==='')return {n:true,v:-Infinity};return {n:true,v:parseFloat(v)};}
        document.querySelectorAll('table.sortable').forEach(function(table){
        var ths=table.querySelectorAll('thead th');
        ths.forEach(function(th,i){th.addEventListener('click',function(){
        var asc=!th.classList.contains('asc');ths.forEach(function(h){h.classList.remove('asc','desc');});th.classList.add(asc?'asc':'desc');
        var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
        rows.sort(function(a,b){var x=key(a.cells[i]),y=key(b.cells[i]);var c=(x.n&&y.n)?(x.v-y.v):String(x.v).localeCompare(String(y.v));return asc?c:-c;});
        rows.forEach(function(r){body.appendChild(r);});});});});
        }

        """

    /// The map: pan (drag, arrow keys), zoom (wheel, +/−, buttons), fit, focus on a fence,
    /// constant-size symbols and labels (`--u`: map units per design pixel), tiny fences as
    /// dots, labels that do not overlap, graticule, scale bar and optional basemap tiles.
    static let map = """
        function nice(r){if(!(r>0))return 1;var p=Math.pow(10,Math.floor(Math.log10(r)));var f=r/p;return (f<1.5?1:f<3.5?2:f<7.5?5:10)*p;}
        function nums(s){return s.split(' ').map(Number);}
        function fsMap(svg){
        var W=960,H=600,vb=nums(svg.getAttribute('data-fit')),all=nums(svg.getAttribute('data-all')),pj=nums(svg.getAttribute('data-proj'));
        var lon0=pj[0],lat0=pj[1],mx=pj[2],my=pj[3],sc=pj[4];
        var box=svg.parentNode,overlay=box.querySelector('svg.overlay'),grat=svg.querySelector('g.graticule'),tiles=svg.querySelector('g.basemap');
        var fences=Array.prototype.slice.call(svg.querySelectorAll('g.f[data-box]'));fences.forEach(function(f){f._b=nums(f.getAttribute('data-box'));});
        var labels=Array.prototype.slice.call(svg.querySelectorAll('text.fence-label'));
        var template=svg.getAttribute('data-tiles'),cache={},moved=false;
        function lon(x){return lon0+(x-W/2)/(mx*sc);}function lat(y){return lat0-(y-H/2)/(my*sc);}
        function px(l){return W/2+(l-lon0)*mx*sc;}function py(l){return H/2-(l-lat0)*my*sc;}
        function r(v){return Math.round(v*1000)/1000;}
        function set(b){var w=Math.max(b[2],0.5),maxw=Math.max(all[2]-all[0],(all[3]-all[1])*W/H,W)*4;w=Math.min(w,maxw);var cx=b[0]+b[2]/2,cy=b[1]+b[3]/2;vb=[cx-w/2,cy-w*H/W/2,w,w*H/W];update();}
        function fitBox(x0,y0,x1,y1,pad){var w=Math.max(x1-x0,(y1-y0)*W/H)*(1+2*pad);set([(x0+x1)/2-w/2,(y0+y1)/2-w*H/W/2,w,w*H/W]);}
        function update(){svg.setAttribute('viewBox',vb.map(r).join(' '));var u=vb[2]/W;svg.style.setProperty('--u',String(r(u*1000)/1000));
        fences.forEach(function(f){var b=f._b;f.classList.toggle('tiny',Math.max(b[2]-b[0],b[3]-b[1])/u<10);});
        var placed=[];labels.forEach(function(t){var x=+t.getAttribute('x'),y=+t.getAttribute('y');var w=t.textContent.length*6.2*u,h=12*u;
        var b=[x-w/2,y-h-2*u,x+w/2,y];var inView=b[2]>vb[0]&&b[0]<vb[0]+vb[2]&&b[3]>vb[1]&&b[1]<vb[1]+vb[3];
        var clash=!inView||placed.some(function(p){return b[0]<p[2]&&p[0]<b[2]&&b[1]<p[3]&&p[1]<b[3];});t.classList.toggle('hidden',clash);if(!clash)placed.push(b);});
        graticule(u);scalebar(u);if(template)basemap();svg.setAttribute('data-zoom',String(r(W/vb[2])));}
        function graticule(u){var d='',txt='';var l0=lon(vb[0]),l1=lon(vb[0]+vb[2]),a1=lat(vb[1]),a0=lat(vb[1]+vb[3]);
        var step=nice((l1-l0)/6),dec=Math.max(0,-Math.floor(Math.log10(step)));
        for(var l=Math.ceil(l0/step)*step;l<=l1;l+=step){var x=px(l);d+='M'+r(x)+' '+r(vb[1])+'V'+r(vb[1]+vb[3]);txt+='<text x="'+r(x+3*u)+'" y="'+r(vb[1]+vb[3]-4*u)+'">'+l.toFixed(dec)+'°</text>';}
        for(var a=Math.ceil(a0/step)*step;a<=a1;a+=step){var y=py(a);d+='M'+r(vb[0])+' '+r(y)+'H'+r(vb[0]+vb[2]);txt+='<text x="'+r(vb[0]+4*u)+'" y="'+r(y-3*u)+'" class="w">'+a.toFixed(dec)+'°</text>';}
        grat.innerHTML='<path d="'+d+'"/>'+txt;}
        function scalebar(u){var g=overlay.querySelector('g.scalebar');var m=nice(0.15*W*u/sc),p=m*sc/u,x0=16,y0=H-18;
        var label=m>=1000?(m/1000)+' km':m+' m';
        g.innerHTML='<rect x="'+(x0-6)+'" y="'+(y0-20)+'" width="'+r(p+12)+'" height="28" rx="4"/><path d="M'+x0+' '+(y0-5)+'V'+y0+'H'+r(x0+p)+'V'+(y0-5)+'"/><text x="'+r(x0+p/2)+'" y="'+(y0-8)+'">'+label+'</text>';g.setAttribute('data-meters',String(m));}
        function basemap(){var rect=svg.getBoundingClientRect();if(!rect.width)return;var mpp=(vb[2]/sc)/rect.width;
        var z=Math.max(0,Math.min(19,Math.round(Math.log2(156543.03*Math.cos(lat0*Math.PI/180)/mpp))));
        function tx(l,z){return (l+180)/360*Math.pow(2,z);}function ty(a,z){var f=a*Math.PI/180;return (1-Math.log(Math.tan(f)+1/Math.cos(f))/Math.PI)/2*Math.pow(2,z);}
        function tl(x,z){return x/Math.pow(2,z)*360-180;}function ta(y,z){var n=Math.PI*(1-2*y/Math.pow(2,z));return Math.atan(Math.sinh(n))*180/Math.PI;}
        var xa,xb,ya,yb;for(;;){xa=Math.floor(tx(lon(vb[0]),z));xb=Math.floor(tx(lon(vb[0]+vb[2]),z));ya=Math.floor(ty(lat(vb[1]),z));yb=Math.floor(ty(lat(vb[1]+vb[3]),z));if((xb-xa+1)*(yb-ya+1)<=64||z===0)break;z--;}
        var want={},n=Math.pow(2,z);for(var x=xa;x<=xb;x++)for(var y=Math.max(0,ya);y<=Math.min(n-1,yb);y++){var k=z+'/'+x+'/'+y;want[k]=1;if(!cache[k]){var im=document.createElementNS(svg.namespaceURI,'image');
        var X0=px(tl(x,z)),X1=px(tl(x+1,z)),Y0=py(ta(y,z)),Y1=py(ta(y+1,z));im.setAttribute('x',r(X0));im.setAttribute('y',r(Y0));im.setAttribute('width',r(X1-X0));im.setAttribute('height',r(Y1-Y0));im.setAttribute('preserveAspectRatio','none');
        var xx=((x%n)+n)%n;im.setAttribute('href',template.replace('{z}',z).replace('{x}',xx).replace('{y}',y).replace('{s}','abc'[(xx+y)%3]));cache[k]=im;}tiles.appendChild(cache[k]);}
        Object.keys(cache).forEach(function(k){if(!want[k]&&cache[k].parentNode)tiles.removeChild(cache[k]);});}
        function at(e){var b=svg.getBoundingClientRect();return [vb[0]+(e.clientX-b.left)/b.width*vb[2],vb[1]+(e.clientY-b.top)/b.height*vb[3]];}
        function zoom(f,c){c=c||[vb[0]+vb[2]/2,vb[1]+vb[3]/2];var w=vb[2]*f;set([c[0]-(c[0]-vb[0])*f,c[1]-(c[1]-vb[1])*f,w,w*H/W]);}
        function pan(dx,dy){set([vb[0]+dx,vb[1]+dy,vb[2],vb[3]]);}
        svg.addEventListener('wheel',function(e){e.preventDefault();zoom(Math.exp(Math.max(-1,Math.min(1,e.deltaY*0.002))),at(e));},{passive:false});
        var drag=null;svg.addEventListener('pointerdown',function(e){if(e.button!==0)return;drag={x:e.clientX,y:e.clientY,vb:vb.slice()};moved=false;});
        svg.addEventListener('pointermove',function(e){if(!drag)return;var b=svg.getBoundingClientRect(),dx=e.clientX-drag.x,dy=e.clientY-drag.y;
        if(!moved&&Math.abs(dx)+Math.abs(dy)<4)return;if(!moved){moved=true;try{svg.setPointerCapture(e.pointerId);}catch(_){}}svg.classList.add('dragging');
        vb=drag.vb.slice();pan(-dx/b.width*vb[2],-dy/b.height*vb[3]);});
        function end(){drag=null;svg.classList.remove('dragging');}svg.addEventListener('pointerup',end);svg.addEventListener('pointercancel',end);
        svg.addEventListener('keydown',function(e){var s=vb[2]*0.1,k=e.key;if(k==='+'||k==='=')zoom(1/1.4);else if(k==='-'||k==='_')zoom(1.4);
        else if(k==='ArrowLeft')pan(-s,0);else if(k==='ArrowRight')pan(s,0);else if(k==='ArrowUp')pan(0,-s);else if(k==='ArrowDown')pan(0,s);
        else if(k==='0')api.fit();else if(k==='a')api.all();else if(k==='Escape')api.focus(null);else return;e.preventDefault();});
        box.querySelectorAll('.mapctl button').forEach(function(b){b.addEventListener('click',function(){var z=b.getAttribute('data-zoom');
        if(z==='in')zoom(1/1.4);else if(z==='out')zoom(1.4);else if(z==='fit'){api.focus(null);api.fit();}else if(z==='legend')box.classList.toggle('nolegend');else api.all();});});
        var api={
        fit:function(){var f=nums(svg.getAttribute('data-fit'));set(f);},
        all:function(){fitBox(all[0],all[1],all[2],all[3],0.02);},
        view:function(){return vb.slice();},
        zoomBy:zoom,
        focus:function(id,quiet){document.querySelectorAll('.hl').forEach(function(e){e.classList.remove('hl');});svg.classList.toggle('focused',id!==null);
        if(id===null){svg.removeAttribute('data-focus');return;}svg.setAttribute('data-focus',id);var sel='[data-fence="'+CSS.escape(id)+'"]';
        document.querySelectorAll(sel).forEach(function(e){e.classList.add('hl');});var bs=fences.filter(function(f){return f.getAttribute('data-fence')===id;});
        if(!bs.length||quiet)return;var b=bs.reduce(function(a,f){return [Math.min(a[0],f._b[0]),Math.min(a[1],f._b[1]),Math.max(a[2],f._b[2]),Math.max(a[3],f._b[3])];},bs[0]._b.slice());
        var min=60*sc;var cx=(b[0]+b[2])/2,cy=(b[1]+b[3])/2,w=Math.max(b[2]-b[0],min),h=Math.max(b[3]-b[1],min*H/W);fitBox(cx-w/2,cy-h/2,cx+w/2,cy+h/2,0.35);},
        moved:function(){return moved;},
        project:function(l,a){return [px(l),py(a)];},
        // Pans so that (x, y) is in view, centred, when it is about to leave the view.
        keep:function(x,y){var mx=vb[2]*0.04,my=vb[3]*0.04;if(x<vb[0]+mx||x>vb[0]+vb[2]-mx||y<vb[1]+my||y>vb[1]+vb[3]-my)set([x-vb[2]/2,y-vb[3]/2,vb[2],vb[3]]);}
        };
        svg.addEventListener('click',function(e){if(moved){moved=false;return;}var f=e.target.closest('[data-fence]');api.focus(f?f.getAttribute('data-fence'):null);});
        update();svg.fsMap=api;return api;}

        """

    /// The report's own part: focus a fence from a table row or a timeline bar, and zoomable
    /// timelines.
    static let report = """
        function fsTimeline(svg){
        var L=+svg.getAttribute('data-left'),P=+svg.getAttribute('data-plot'),D=+svg.getAttribute('data-duration'),C=+(svg.getAttribute('data-clock')||0),a=0,b=D;
        var bars=Array.prototype.slice.call(svg.querySelectorAll('rect[data-t0]'));bars.forEach(function(e){e._t=[+e.getAttribute('data-t0'),+e.getAttribute('data-t1')];});
        var axis=svg.querySelector('g.axis'),Y=+svg.getAttribute('data-axis');
        function x(t){return L+(t-a)/(b-a)*P;}
        function draw(){bars.forEach(function(e){var x0=Math.max(x(e._t[0]),L-2),x1=Math.min(x(e._t[1]),L+P+2);var vis=x1>=L-1&&x0<=L+P+1;
        e.style.display=vis?'':'none';if(vis){e.setAttribute('x',x0.toFixed(1));e.setAttribute('width',Math.max(x1-x0,2).toFixed(1));}});
        // Traces of a day or more are labelled by UTC day and clock (day 1 is the start's date), shorter ones by time from the start.
        var span=b-a,unit=span>=172800?86400:span>=7200?3600:span>=600?60:1,step=nice(span/unit/8)*unit,s='<line x1="'+L+'" y1="'+Y+'" x2="'+(L+P)+'" y2="'+Y+'"/>';
        var days=D>=86400,off=days?C:0;if(days&&unit===3600)step=([1,2,3,6,12].find(function(h){return h*3600>=span/8;})||24)*3600;
        if(days&&unit===86400&&step<86400)step=43200;
        function two(n){return (n<10?'0':'')+n;}
        function text(t){if(!days)return (Math.round(t/unit*100)/100)+' '+(unit===1?'s':unit===60?'min':unit===3600?'h':'d');var v=t+C,d=Math.floor(v/86400)+1,c=v-(d-1)*86400;
        return 'day '+d+(c<1?'':' '+two(Math.floor(c/3600))+':'+two(Math.floor(c/60)%60)+(unit===1?':'+two(Math.floor(c)%60):''));}
        for(var u=Math.ceil((a+off)/step)*step;u<=b+off+1e-9;u+=step){var t=u-off,X=x(t).toFixed(1);s+='<line class="grid" x1="'+X+'" y1="24" x2="'+X+'" y2="'+Y+'"/><text x="'+X+'" y="'+(Y+14)+'">'+text(t)+'</text>';}
        axis.innerHTML=s;svg.setAttribute('data-window',a.toFixed(1)+' '+b.toFixed(1));}
        svg.addEventListener('wheel',function(e){var r=svg.getBoundingClientRect(),vx=(e.clientX-r.left)/r.width*960;if(vx<L)return;e.preventDefault();
        var c=a+(vx-L)/P*(b-a),f=Math.exp(Math.max(-1,Math.min(1,e.deltaY*0.002))),w=Math.min(D,Math.max(1,(b-a)*f));a=Math.max(0,Math.min(D-w,c-(c-a)*w/(b-a)));b=a+w;draw();},{passive:false});
        var fig=svg.closest('figure');fig.querySelectorAll('button[data-tl]').forEach(function(btn){btn.addEventListener('click',function(){var k=btn.getAttribute('data-tl'),w=b-a,c=(a+b)/2;
        if(k==='in')w=Math.max(1,w/2);else if(k==='out')w=Math.min(D,w*2);else if(k==='left')c-=w/4;else if(k==='right')c+=w/4;else{w=D;c=D/2;}
        a=Math.max(0,Math.min(D-w,c-w/2));b=a+w;draw();});});
        draw();}
        fsTables();
        var map=document.getElementById('map'),api=map?fsMap(map):null;
        document.querySelectorAll('svg.timeline-svg').forEach(fsTimeline);
        document.addEventListener('click',function(e){if(!api||e.target.closest('#map'))return;var t=e.target.closest('tr[data-fence],rect[data-fence]');if(!t)return;
        api.focus(t.getAttribute('data-fence'));map.scrollIntoView({block:'nearest'});});
        document.documentElement.setAttribute('data-ready','1');

        """

    /// The report page's script.
    static let reportPage = "(function(){\n" + tables + map + report + "})();\n"
}

extension PageScript {
    /// The replay view's own part: the clock, the device, fence states and the event list.
    static let view = """
        var map=document.getElementById('map'),api=fsMap(map),data=JSON.parse(document.getElementById('replay-data').textContent);
        var slider=document.getElementById('slider'),clock=document.getElementById('clock'),play=document.getElementById('play'),speed=document.getElementById('speed'),follow=document.getElementById('follow');
        var dev=document.getElementById('device'),disc=document.getElementById('disc'),tru=document.getElementById('device-truth');
        var items=Array.prototype.slice.call(document.querySelectorAll('#events li'));items.forEach(function(li){li._t=+li.getAttribute('data-t');});
        var list=document.getElementById('events'),T=0,playing=false,last=null,D=+slider.max,started=false;
        function find(a,t){var lo=0,hi=a.length-1,k=-1;while(lo<=hi){var m=(lo+hi)>>1;if(a[m][0]<=t){k=m;lo=m+1;}else hi=m-1;}return k;}
        function hms(s){s=Math.floor(s);var h=Math.floor(s/3600),m=Math.floor(s/60)%60,x=s%60;return h+':'+(m<10?'0':'')+m+':'+(x<10?'0':'')+x;}
        function show(t){T=Math.max(0,Math.min(D,t));slider.value=String(T);clock.textContent=hms(T);
        var k=find(data.feed,T);if(k<0)k=0;var f=data.feed[k];if(f){dev.setAttribute('cx',f[1]);dev.setAttribute('cy',f[2]);disc.setAttribute('cx',f[1]);disc.setAttribute('cy',f[2]);disc.setAttribute('r',f[3]);dev.setAttribute('data-fix',String(k));if(follow.checked&&started)api.keep(f[1],f[2]);}
        if(tru&&data.truth.length){var j=find(data.truth,T);if(j<0)j=0;tru.setAttribute('cx',data.truth[j][1]);tru.setAttribute('cy',data.truth[j][2]);}
        var inside={},cur=null;items.forEach(function(li){var past=li._t<=T;li.classList.toggle('past',past);li.classList.remove('current');if(past){cur=li;var f=li.getAttribute('data-fence'),ty=li.getAttribute('data-type');
        if(f!==null){var w=li.getAttribute('data-geotrigger')||'';if(ty==='enter'||ty==='dwell'){inside[f]=inside[f]||{};inside[f][w]=true;}
        else if(ty==='exit'&&inside[f]){delete inside[f][w];if(!Object.keys(inside[f]).length)delete inside[f];}}}});
        map.querySelectorAll('g.f').forEach(function(g){g.classList.toggle('inside',!!inside[g.getAttribute('data-fence')]);});
        if(cur){cur.classList.add('current');var top=cur.offsetTop-list.offsetTop-list.clientHeight/2;if(Math.abs(list.scrollTop-top)>list.clientHeight/3)list.scrollTop=top;}else list.scrollTop=0;
        map.setAttribute('data-time',T.toFixed(1));}
        // Timers rather than animation frames: they also run in a page in the background and under a test's virtual time.
        function tick(){if(!playing)return;var now=performance.now();if(last!==null)show(T+(now-last)/1000*(+speed.value));last=now;if(T>=D){toggle(false);return;}setTimeout(tick,33);}
        function toggle(on){playing=on;last=null;play.textContent=on?'❚❚ pause':'▶ play';play.setAttribute('aria-label',on?'Pause':'Play');if(on){if(T>=D)show(0);tick();}}
        play.addEventListener('click',function(){toggle(!playing);});
        slider.addEventListener('input',function(){show(+slider.value);});
        items.forEach(function(li){li.addEventListener('click',function(){toggle(false);show(li._t);var f=li.getAttribute('data-fence');if(f!==null)api.focus(f,true);});});
        document.addEventListener('keydown',function(e){if(e.key===' '&&e.target.tagName!=='INPUT'&&e.target.tagName!=='SELECT'&&e.target.tagName!=='BUTTON'){e.preventDefault();toggle(!playing);}});
        // The page opens on the whole drive; following starts with the first move.
        show(0);started=true;
        document.documentElement.setAttribute('data-ready','1');

        """

    /// The replay view's script.
    static let viewPage = "(function(){\n" + map + view + "})();\n"
}
