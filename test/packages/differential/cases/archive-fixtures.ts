// Archives made by the real tools (GNU tar 1.34, GNU gzip 1.12, Info-ZIP zip
// 3.0), stored gzipped in base64, for the differential cases that read what
// GNU and Info-ZIP write (listings whose numbers depend on their compressor).
// Regenerate: see docs/decisions/0009-archives.md ("Fixtures").
import { gunzipSync } from 'node:zlib';

const unpack = (b64: string): string => gunzipSync(Buffer.from(b64, 'base64')).toString('latin1');

/** info.zip */
export const infoZip = unpack(
  'H4sIAAAAAAACAwvwZmbhYgCBkGTdQAYkwMIgw5CSWaQfGsLJwMwgEBcPwqUV3AyMLBBpIAhA0a1gYGXGBmSDMCdUd6JeSUUJPiMyUnNy8rlABo' +
  'kAeRxgg4r3r3pZzszAkMLOwMANNag4tZCQUbJXT29tceBhvrh30cFJGQr/jyyzqZ7/fWX2HWXtVXmytlVfM/XOZqzpXDYrutik/9nVmk+q/TmW' +
  'RU+j7T4p7/+0POaUxp8TGqF5TzX6P2nNr1q5OOqpedjeq4vtXq2u26V/d/HtXYtn27+4Vltivyv+7vxzS42trnX6lf6o7j+3+POrmio928XHqx' +
  'Ytr8qz/WPdPy/8/PLvl6yr1ppXrf5+rfrLp/v7quxrp++7mF57Mbx2+77F7y+696x17OuWE3fU64pR2ZlRJPh00SnXad07682emd2Zdrvkdt7j' +
  '3L1n3fcrPqj4beR+WPFRQOEJixIZJz7V9inOp086GbifW/hcoETDSkV2Fl9g+yrnay+7DN1vKr69UNZhfUX2E19t+wHnhzunT7NU4p/afsb5ue' +
  'KXgCoP2y1ySedvyib03XP+sPDHhJoMOxf5Vfw32999frPJwP3Xwr8C9Svsn8j/4mdoPuBg8D5PtFiDh6f5MIOhB49I89EGw4wz219v/32c6VGi' +
  'TU/7RwO5Y4crJPgfP7zpmsrH/xgutvv87gv/e9PyyqumV22vul71vUpcGiQ9J7b22QeYJrDqgu/Sicg6gRL3fxsatiPMBkmdrys98xDVxnR7fz' +
  'SjPuy+b1gM54Glftzmr9tfYVdp0+T+gUPuoHIFS/8DQRujaqkZh6FsqMQ96UMycPlN09P8z96b9X9jYt75s/dm21pUF357AlHr8V3LsB3ZrCb3' +
  'd7bxZx4KItswcXN5nyWqlZ/eOKbwIdkHFN1TbTkTzRX3593Yu1Em0qbL/aOG3NHFFSL9jwJtrKp7Zh6GsqES91aflYHLg8XOzit/9gGq5530hv' +
  '4D+5h+8/y5z/jsm+qN5Qn3m2p5YLL3ficYtCOb3+V+fp/OmYeByLZeTJ+vADcPYseL3fmixSiuqPhy2z03fqu3PWohsOv764OsQDYrODdD8m5O' +
  'Zl42vowLLiRQjZGd+xvMg2CIMUWleXrFGfgMUlbUT8rM0y/O4ArAWa7BHFVcmkSwbEMUSWo+3NslGCFyvEgmVOgBLcRnTHJCSlJaYmry8wdPHj' +
  '17+PSxuICIkJigqPD0CVMmTZs4dXJ4QEhQWGBo8PULVy5du3j1srmBiZGZoanx9g1bNm3buHVzeUFJUVlhafH3D18+ffv49TM/Bw8XHycvd39H' +
  'T1dfZ2+3v4ePl5+nr/f5E2dOnTt59rS+ho6Wnqau9voVa1atW7l2dX5GTlZeZm72+xdvXr17+fb1fIPCS080g5f7zjcsvvbGsvj52fgNBRcfqX' +
  'pP143fWHT1lWn29bX3NxRefqYbvT33/sbi6+9sq7+/tS/4cOGhsnu/rH3hpysvjdPPz91f8PHSU+3w9bH7Cz9fe2td/v5u/YcPFx+r+8+3rf/4' +
  '6epr8/z7e/9/+Hj5uX78/tr/Hz9ff29f//9vusTX/yv+u2/4zxjgzcgkx4yr6pGAsgQY3jqCaEhFxAoJZYyIQjUJtRqCmASKuSWNdlCToJUSPu' +
  'NwVUbIxrVDjYNXTcS5DzWHSMB9/X+hMwsDUn4hzjTUjIJw3tvGLqhpsGxDnHmoWQU5Hm5AzYNkHOICDzXbIPy6pFGKlQE9E+EykhUUkwzsQKjJ' +
  'xMBQCeYBAJe3EM+4CAAA' +  '',
);

/** stream.zip */
export const streamZip = unpack(
  'H4sIAAAAAAACAwvwZmbhYgCBkGTdQAUDKzM2IBuEORlkGFIyi/QT9UoqSkJDOBmYGQTi4uddZ8wureBmYGQB6QETGak5OflcAUCDRIA8DrBBxf' +
  'tXvSxnZmBIYWdg4IYaVJxaSMgo2aunt7Y48DBf3Lvo4KQMhf9HltlUz/++MvuOsvaqPFnbqq+Zemcz1nQumxVdbNL/7GrNJ9X+HMuip9F2n5T3' +
  'f1oec0rjzwmN0LynGv2ftOZXrVwc9dQ8bO/VxXavVtft0r+7+PauxbPtX1yrLbHfFX93/rmlxlbXOv1Kf1T3n1v8+VVNlZ7t4uNVi5ZX5dn+se' +
  '6fF35++fdL1lVrzatWf79W/eXT/X1V9rXT911Mr70YXrt93+L3F9171jr2dcuJO+p1xajszCgSfLrolOu07p31Zs/M7ky7XXI773Hu3rPu+xUf' +
  'VPw2cj+s+Cig8IRFiYwTn2r7FOfTJ50M3M8tfC5QomGlIjuLL7B9lfO1l12G7jcV314o67C+IvuJr7b9gPPDndOnWSrxT20/4/xc8UtAlYftFr' +
  'mk8zdlE/ruOX9Y+GNCTYadi/wq/pvt7z6/2WTg/mvhX4H6FfZP5H/xMzQfcDB4nydarMHD03yYwdCDR6T5aINhxpntr7f/Ps70KNGmp/2jgdyx' +
  'wxUS/I8f3nRN5eN/DBfbfX73hf+9aXnlVdOrtlddr/peJS4Nkp4TW/vsA0wTWHXBd+lEZJ1Aifu/DQ3bEWaDpM7XlZ55iGpjur0/mlEfdt83LI' +
  'bzwFI/bvPX7a+wq7Rpcv/AIXdQuYKl/4GgjVG11IzDUDZU4p70IRm4/Kbpaf5n7836vzEx7/zZe7NtLaoLvz2BqPX4rmXYjmxWk/s72/gzDwWR' +
  'bZi4ubzPEtXKT28cU/iQ7AOK7qm2nInmivvzbuzdKBNp0+X+UUPu6OIKkf5HgTZW1T0zD0PZUIl7q8/KwOXBYmfnlT/7ANXzTnpD/4F9TL95/t' +
  'xnfPZN9cbyhPtNtTww2Xu/Ewzakc3vcj+/T+fMw0BkWy+mz1eAmwex48XufNFiFFdUfLntnhu/1ds+wJuRSY4ZVzEgARZnBOIljSAWUqHACsnJ' +
  'aLkYYhyuwgDZOE+ocfCiAZeBrCCnMDAB4QIgzQoWBQDaYyuyuwQAAA==' +  '',
);

/** hello.gz */
export const helloGz = unpack(
  'H4sIAAAAAAACA5Pv5uBgEIiLZ2DOSM3JydcrqShhOO1x9uTJ50wMCgZWZmwMDAwAgPXyciQAAAA=' +  '',
);

/** n9.gz */
export const seqGz = unpack(
  'H4sIAAAAAAACA2WOfUwTdxjHUVhGtikzMU7wOOZQcTI1jcNSvWqYETBB0JUIc1r+aJA5kWpVuFrbGjTOjZcqqBWdsqyZxw8EZL5AVUSE9lpQai' +
  '0FzaA4roCFjlIsdHKrrCCF6/nX537P83m+3wvJ8ff3+ZSbMts3Y9Vh9LBPcPuWO36L/f0e1mJf1s+ySavmHi22BQReeAQxBNer8MCsVpQn4bUw' +
  'eI+hQ3lKHOGZGPseM7sXMWIaT0NV0dZ5aY3B20NNGr4ZssT0aiIEMiTUpgl6ox5TX+KpkiVE0D7ZEfVdnjGZb+VbWZm5V3jkidHnadb1mXku9R' +
  't1EdEYyWoJwrtEaiXRGsnv4HewMnIvExUHnTVvr6zPyCOjxYrekoXnFW0l7P7c4a62EqaJaYJWq5vtbajo/hpTcEJg56l1G8THPnrz9TAwG7TY' +
  'uYTw4p0blNL9gt27mO3GI1m7udXtIxb+igPRznCsATQCFVADHGiAFjSB5qI5i7EWoANPgR48AwbQCoygTbkzLv4m5zanmqPk3OPUcuo49ZyGQ8' +
  'zyXwuwC9gl7Cr2O3YNK8UqsD/7LGs+x2xgCNjBMHgNHGAEjAKnkLyhAZJ+yQrpj9JSab909kW/ZdnfiUvNy+M+KWzwY2yJm1+oOsnY+7gdr9QV' +
  '+2pCUT/Zy3lIdsyQP1wfuickkeWGZ+YQDvq6NuoF4mvkNicY5HX23Q1YO7H6gnzVbPenmEOnjV2nIUqSe/HcxdDSJEPKFZpU4xI20aR+W3L+9H' +
  '5ydv/tSzLHqX0dC2tDhUtk5rNIQcyw5kXSCWjqe2qR+2CTGZ3eP9g7Vmq51yt9oRk5YnBuTYkUE47zDe8CyvhLWdSwWFhJjhUQ1DDzWczGoklC' +
  '8ptzNMnIxGh/cUysGg0eKOipQr+Cc/BuD/akqAXIApmKZ0/2YIejfCVOeU8gNcU2re2om+Xyd4Q/1T0cDz4zIP+tOFvy8RjjpScxc+NCemKbRb' +
  '45f6ZzEnddflrvDnuykX8e8jpcIBsZ2z6Q9OSmmvf6ObJW9sQDneStGU2HL+O9VcIpWF9lfZtPeU+gRbKth64ZV1dC74Iy61pciJPsCDhc93Q8' +
  'bGdFiEXyB1lEUQ18JTTTOQkxqZcTXh29VWWYL8urIx0mRxbqD52Mysb/PohC8E8eFLEPaOyRyFxZAzHkgb7wZ4j6dqOQ/eg9rSwtmDUTNIk057' +
  'Yl+IQRr9vKjhwxtyo4ung24sLClFeLjx7vpqh9oxeX4l4dDUSijifw7kBaBurLw5iKRbJmYrgGWeXBelFjIXFQuAuW4z0eKNKiWNS3G0zRD+fo' +
  'WlKCXDATNInBQUZivtehHGezK5vsNUhGwi32s9G4vzbtT7jNbhvdRYak9xy95a2WXz3eg3p1CDvaFQJd06lUWKVA58u6tyO/xNiXwxGikgvE1P' +
  'fUQm+ohqb3k7Mm2NBDuXHPWvuF3HzKjXvxD/wfXbLMiaJJndylZjTRFlSb7rijH4i2Lao94FDrw3Fp3xnaX1TKC03x18MQWIYTdtQDkzUiOp86' +
  'cCPHlGVGvb37VlUsXfu+Nkprp3n3klayvAtgmyN+Ge2S6OSa3mvoX5lQUf2Q6ysKsG6+waznfiD6zJp6o7p+fN2/XR/W2X1372jMiwjw8fkfB6' +
  'oKfz4HAAA=' +  '',
);

/** gnu.tar */
export const gnuTar = unpack(
  'H4sIAAAAAAACA+2aVVTbUBzGM986d9/CmEuTG52PudC5+wINpKO0WRsGzJi7u7u7u7u7u7u7b7fwtLLB6WFJgd7fS3rSPvW735e/RLHKBKYyJI' +
  'Rn2cgrxPka+RnQPMUzIOo+IGmWxHAW04AQuyLYcByzWa1KTL+L7fsEigL1F/RKmKKy/hzD/Ft/QDvpD2iKxnAS6a86glmWBJ2fqAg6DOF5OPzv' +
  'Z7Konv8x+Z+Jlv+OBwDyvyYkSZoseYqUqVKn0aVNlz5DxkyZs2TNlj1Hzly58+TNl79AQdyrkHfhIkWLFS9RslTpMnqCBBTNsBxftlz5ChUrVa' +
  '7iU7Va9Ro1a9WuU7eer6F+g4aNGjdp2qx5i5atWrdp2659h46dBD9/oxgQKJk6B5mDLVa5i82uhHQNDQvv1r1Hz14Rvfv07dd/wMBBg4cMHTZ8' +
  'xMhRo8eMHTd+wsRJk6dMnTZ9xsxZs+fMnTd/wcJFi5csXbZ8xcpVq9esXbd+w8ZNm7ds3bZ9x85du/fs3bf/wMFDh48cPXb8xMlTp8+cPXf+ws' +
  'VLl69cvXb9xs1bt+/cvXf/wcNHj588ffb8xctXr9+8fff+w8dPn798/fb9x89fyP8yYfzPEHGt/2h4ynhU/2mBntATPgarJdBgsgS5Kf8pivrj' +
  'LMD8Z3movwHpnzD9HxAHUEmW6PSPtf8jWaf8pwHgUP2nBUZRlFHn59n+F4NlJVzFKaDr8z/Akhyq/7TSXxJsRnf2/9H1p3gOYDjQYjiJ9CfM6o' +
  '5/ovwPC3oX/M9xFIZTamuP9I8X/R9U27n/42BJiPui/FedcE0h4H8dKCbKOWpCzn9of7N69nc9/xnAARrmvxZHEj3/CVuIRW+X3Fj/U/Rf63/U' +
  '/6uPt5dj/UfYJZ3oL1lxeBTQNMDT8j/UpEi4XRb8RXf1f87+p2iA3v/QBDua/nk08WL/R4Lo+z8G7f+0yv8wN6HBdAcRD/R3ff/H8Qx6/0sTHL' +
  '0/qgAQCATC8/gNYD50xgA0AAA=' +  '',
);

/** pax.tar */
export const paxTar = unpack(
  'H4sIAAAAAAACA+2aZVTbYBiFM986d9/CmAvpF2XCXJgzdwk0kI7SZk0YZe7u7u7u7u7u7u7uW1J+jJNu9HBY0sPp9/xJT9sfTW/uPe99E8kmYI' +
  'jGGGUYinIeZdRH52tAMDhDgpj3AaApI4JSiA5EihJrl3+K3WaT4vqeu8/VJ5dIkGT9WT/JIWmsP02S/9YfECr9cRonENQI9dcc1iLwrCGYk1gD' +
  'AvE+FP8Hm62a539c/idd8h8nCAr6XxeSJE2WPEXKVKnTGNKmS58hY6bMWbJmy54jZ67cefLmy1+gIOpTyLdwkaLFipcoWap0GT9M0YakaMa/bL' +
  'nyFQIqVqpcpWq16jVq1gqsXaduvfoNGgY1atykabPmLVq2at2mbbv2HTqywSEmLjSMN3cKt0RYbUJnuyhFdolyRHft1r1Hz169+/Tt13/AwEGD' +
  'hwwdNnzEyFGjx4wdN37CxEmTp0ydNn3GzFmz58ydN3/BwkWLlyxdtnzFylWr16xdt37Dxk2bt2zdtn3Hzl279+zdt//AwUOHjxw9dvzEyVOnz5' +
  'w9d/7CxUuXr1y9dv3GzVu379y9d//Bw0ePnzx99vzFy1ev37x99/7Dx0+fv3z99v3Hz1/Q/wJm+s9gCZ3/CEDiDJz/Eq3+QawjkGNNnF3EQmXc' +
  '5b+c9mr9CVKe/xx66u+l/gcUhQqsxAdociGEJgA4jyZa/6uUdNv/jJTK/yQJaDj/6YGJ4wToNO/2PxchSNEabgHjv/8j5MCA859e+vOs3eTJ/u' +
  '+qP4nTAEGBHstJqD9m0Xb9E+N/homP/wGNIyiutfZQf6f+seqaxWYNs5it4br6Hze67P9JmoH9T5f+RwBUEdzZAaN1BZP/+DBOgtOnx/NfC9Mn' +
  'JP9JAgBCzn89rkKY/5g90uon8h6c/3Hir/M/7P/a4+uj3P7DRN7AhfA2VL4UYB57W/5HmSUeFQU2hPNU/3PxPw3g8x+6IMLtn9f7P1b/c2iB2/' +
  '4HcPX+n1b2P7D/6dH//P/c/3N4CGXNA2PIY/7XWt543/8jjTgJn//SBaX7Q+tBIBCI9/EbegXdkwA0AAA=' +  '',
);

/** ustar.tar */
export const ustarTar = unpack(
  'H4sIAAAAAAACAyvJL9BnoDEwAAJzU1MwDQToNJhtaGxuZG5iCBE3NDQzNWBQMGWgAygtLkksAjqlKD+/BJ86QvLonhsioAQY/4l6JRUlNI5/Mx' +
  'MT3PFvaIwW/0ZmRsYMCgaj8U9zkJhTkJHIlZRaksjFMApGHgDl/6TMPJqX//jyvwlG+W9kbGw6mv/pAhiZmFlY2dg5OLm4eXj5+AUEhYRFRMXE' +
  'JSSlpGVk5eQVFJWUVVTV1DU0tbR1dPX0QXFjYmpmbmFpZW1ja2fv4Ojk7OLq5u7h6eXt4+vnHxAYFBwSGhYeERkVHRMbF5+QmJSckpqWnpGZlZ' +
  '2Tm5dfUFhUXFJaVl5RWVVdU1tX39DY1NzS2tbe0dnV3dPb1z9h4qTJU6ZOmz5j5qzZc+bOm79g4aLFS5YuW75i5arVa9auW79h46bNW7Zu275j' +
  '567de/bu23/g4KHDR44eO37i5KnTZ86eO3/h4qXLV65eu37j5q3bd+7eu//g4aPHT54+e/7i5avXb96+e//h46fPX75++/7j56/ff/7++z+a/w' +
  'v0U6gM9Clt/xkbmhiZj7b/6AHSKABUa/8ZmKLGv4mpseFQL/9pkbFo4P2U1NSC0ZbfyC7/U3MLSippOApAev/fGFhgjJb/9Ir/jMSiFFraQbj8' +
  'R49/EyMzQwYFQ3oMTozGv34Obbt/kPxvbk5K/jc0M2JQMKJ13I/GPyT+8/PSczLzsgdN/JsYGxoaA+O/kg5gNP71i0rz9IozBrD+NzLGWv+Pjv' +
  '/QHigrgob/9IszuFKTM/IVgElhtDcw0tr/5ZklGQrFBYnJqQPV/sPI/2aGo/M/dAHFo73/UTAKRsEoGJEAADs2d7AAJAAA' +  '',
);

/** v7.tar */
export const v7Tar = unpack(
  'H4sIAAAAAAACA+3UwQqAIAyA4Z19iqJ7aml7Ho3AICpqQY+fRKeiY0G07zLYTfAfDaN0Oa0Ez1FRZcw+o/NUSpegSyzQ6GOPVhtI4EvOj/sI14' +
  '3BCd+QE8D+h2L/09Lnc3g2DbT2vv/i0n+FyP2/IUulb3s5B9HUYUjiV+A7wBhjf7ABju5bNAAMAAA=' +  '',
);

/** tgz.tgz */
export const gnuTgz = unpack(
  'H4sIAAAAAAACA5Pv5mAAA+a3V05zHTIQaH245reI4Pdcvb02/lqtHJemmLHK3w852LpoXZbmn/tpCpFnBIrU2hYWVO5x2yg39Upq5fqT2aFe0Q' +
  'tzk2cF2Z/buu0Y18qwOS8z5y2SXiqSzBF//8H1v347Tz+IvVZ2MTW6v4n3yJT/he8+n1x/PZmzNDh0/uf8e5/iV8768//wx4Atz/fNqLk2t2bC' +
  'S+0N7AxI4NsTNtFznjIMGgwMAD3xJzCwAAAA' +  '',
);
